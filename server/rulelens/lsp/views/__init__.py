"""The core's answers shaped for the editor, shared by several features: what other agents load
for a file, another agent's rule file under the cursor, the "agents do not see it" line, and the
record skeleton for clients that cannot prompt."""
