"""MCP server and `rulelens init` tests."""
