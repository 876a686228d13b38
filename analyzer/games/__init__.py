"""Game engines, one module per game, and the registry that resolves variant strings."""
