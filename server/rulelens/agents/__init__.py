"""Other agents' rule files: one module per agent under `formats/`, listed once in `registry`.

Exports nothing: `project.AgentProject` answers what every agent loads for a path,
`traps.agent_problems` what `check` reports. ARCHITECTURE.md maps the modules.
"""
