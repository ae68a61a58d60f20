"""What every simulator shares: the simulator declaration, seeds, runner and store."""
