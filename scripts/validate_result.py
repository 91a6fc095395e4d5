#!/usr/bin/env python3
"""Validates kblaster result JSON against its schema in reports/schema/.

    scripts/validate_result.py RESULT.json [RESULT.json ...]

Each file's "kind" picks reports/schema/<kind>.schema.json; a KB export, which is marked
by "kblaster_kb" instead, is checked against kb_export.schema.json. The schemas refer to each
other by file name (provenance.schema.json), resolved from that folder, never fetched.
Prints one line per file, "ok" or every error with its JSON path, and exits 1 if any
file fails, 2 on bad usage, 3 when python3-jsonschema is not installed.
"""
import json
import pathlib
import sys

try:
    import jsonschema
except ImportError:
    print("validate_result.py: python3-jsonschema is not installed (Debian: apt-get install "
          "python3-jsonschema; scripts/setup.sh installs it)", file=sys.stderr)
    sys.exit(3)

SCHEMAS = pathlib.Path(__file__).resolve().parent.parent / "reports" / "schema"


def load_schemas():
    """Every schema of the folder, by its $id."""
    schemas = {}
    for path in sorted(SCHEMAS.glob("*.schema.json")):
        schema = json.loads(path.read_text())
        schemas[schema["$id"]] = schema
    return schemas


def validator_for(schema, schemas):
    cls = jsonschema.validators.validator_for(schema)
    try:  # jsonschema >= 4.18
        from referencing import Registry, Resource

        registry = Registry().with_resources(
            (uri, Resource.from_contents(s)) for uri, s in schemas.items())
        return cls(schema, registry=registry)
    except ImportError:  # Debian 12's 4.10
        resolver = jsonschema.RefResolver.from_schema(schema, store=schemas)
        return cls(schema, resolver=resolver)


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    schemas = load_schemas()
    failed = False
    for name in argv[1:]:
        try:
            result = json.loads(pathlib.Path(name).read_text())
        except (OSError, ValueError) as e:
            print(f"{name}: cannot read: {e}")
            failed = True
            continue
        kind = result.get("kind") if isinstance(result, dict) else None
        if kind is None and isinstance(result, dict) and "kblaster_kb" in result:
            kind = "kb_export"
        schema_path = SCHEMAS / f"{kind}.schema.json"
        if not isinstance(kind, str) or not schema_path.is_file():
            print(f"{name}: no schema for kind {kind!r} in {SCHEMAS}")
            failed = True
            continue
        schema = json.loads(schema_path.read_text())
        errors = sorted(validator_for(schema, schemas).iter_errors(result), key=lambda e: list(e.path))
        if errors:
            failed = True
            for e in errors:
                # A oneOf/anyOf error ("null, or an object that ...") is named by its
                # deepest cause, so a wrong value inside a nullable field shows its path.
                e = jsonschema.exceptions.best_match([e])
                where = "/".join(str(p) for p in e.absolute_path) or "(top)"
                print(f"{name}: {where}: {e.message}")
        else:
            print(f"{name}: ok ({kind}, schema_version {result.get('schema_version')})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
