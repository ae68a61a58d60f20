"""Bang! (base game): rules kernel, bots, simulator."""
