#!/usr/bin/env python3
"""Validates every scenario under the given folders against docs/scenario.schema.json.

The schema is for editors and other tools; ctxsim checks far more itself. This keeps the
two from drifting apart: every scenario ctxsim accepts must also satisfy the schema.
"""
import json
import pathlib
import sys

import jsonschema

root = pathlib.Path(__file__).resolve().parent.parent
schema = json.loads((root / "docs" / "scenario.schema.json").read_text())
jsonschema.Draft202012Validator.check_schema(schema)
validator = jsonschema.Draft202012Validator(schema)

failed = 0
files = sorted(p for folder in sys.argv[1:] for p in pathlib.Path(folder).rglob("*.json"))
for path in files:
    errors = list(validator.iter_errors(json.loads(path.read_text())))
    for error in errors:
        where = "/".join(str(p) for p in error.absolute_path) or "(top level)"
        print(f"{path}: {where}: {error.message}")
    failed += bool(errors)
print(f"schema: {len(files)} scenario(s), {failed} failed")
sys.exit(1 if failed else 0)
