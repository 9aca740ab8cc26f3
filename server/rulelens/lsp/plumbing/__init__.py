"""What every feature stands on: positions, settings, workspace roots, guards, the protocol, events."""
