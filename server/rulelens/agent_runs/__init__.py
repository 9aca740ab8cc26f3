"""End-to-end runs of the agents' released binaries: each started headless and offline in a
scratch copy of the project, against a fake model on 127.0.0.1 that asks it to read, edit or
create one path; what reached the model, and when, is the observation.

Above `agents/` (the comparison asks the model what it predicts), below the fronts. Parts:
`model` (the data), `fake_models/` (one API family each), `launchers/` (one agent each),
`scratch` (the copy), `processes` (starting and ending), `extraction` (requests to files),
`runner` (`run`), `compare` (prediction beside observation)."""
