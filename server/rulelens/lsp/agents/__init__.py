"""Other agents in the editor: what each loads for a source file (`view`), and their own rule
files' findings, glob hover and completion (`rule_files`)."""
