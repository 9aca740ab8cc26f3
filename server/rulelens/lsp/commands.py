"""Names of the commands the server executes (workspace/executeCommand)."""

RECORD_RULE = "rulelens.recordRule"
OPEN_RULE = "rulelens.openRule"
WRITE_INDEX = "rulelens.writeIndex"
ALL = [RECORD_RULE, OPEN_RULE, WRITE_INDEX]
