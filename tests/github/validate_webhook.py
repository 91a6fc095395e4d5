#!/usr/bin/env python3
"""Validates a webhook event payload against GitHub's schema for it.

    validate_webhook.py WEBHOOKS.json EVENT PAYLOAD.json

WEBHOOKS.json is @octokit/openapi-webhooks' generated/api.github.com.json (OpenAPI 3.1);
EVENT is the event and action as its `webhooks` map names them, e.g. pull-request-opened,
pull-request-synchronize or push. The schema is the one that map's operation takes as its
request body. Prints "ok" or every error with its JSON path, and exits 1 if the payload
fails, 2 on bad usage, 3 when python3-jsonschema is not installed.
"""
import json
import pathlib
import sys

try:
    import jsonschema
except ImportError:
    print("validate_webhook.py: python3-jsonschema is not installed (Debian: apt-get install "
          "python3-jsonschema; scripts/setup.sh installs it)", file=sys.stderr)
    sys.exit(3)


def main(argv):
    if len(argv) != 4:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    document = json.loads(pathlib.Path(argv[1]).read_text())
    event, payload = argv[2], json.loads(pathlib.Path(argv[3]).read_text())
    operation = document.get("webhooks", {}).get(event, {}).get("post")
    if operation is None:
        print(f"{argv[1]}: no webhook {event!r}")
        return 2
    ref = operation["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    # The whole document is the root schema, so that every "#/components/..." resolves in
    # it, with no registry (Debian 12's jsonschema 4.10 has none); other keys are ignored.
    schema = dict(document, **{"$ref": ref})
    cls = jsonschema.Draft202012Validator
    checker = getattr(cls, "FORMAT_CHECKER", None) or jsonschema.FormatChecker()
    errors = sorted(cls(schema, format_checker=checker).iter_errors(payload),
                    key=lambda e: list(e.absolute_path))
    for e in errors:
        e = jsonschema.exceptions.best_match([e])
        where = "/".join(str(p) for p in e.absolute_path) or "(top)"
        print(f"{event}: {where}: {e.message}")
    if not errors:
        print(f"{event}: ok ({ref})")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
