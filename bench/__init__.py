"""`make bench`: speed against the straightforward way, measured in the same run (report.json/.md)."""
