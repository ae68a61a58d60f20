"""CLI sub-apps: each module parses options and delegates to simulators, analysis and reports."""
