"""The pages and files other programs read, checked with those programs'
own rules (run by .ci/run, from the repository's root):

- the golden Markdown pages rendered by cmark-gfm (GitHub's renderer):
  each pipe table must come out as an HTML table, none swallowed by the
  <details> block or read as a paragraph, with the reviewer's columns;
- the golden BMF files validated against Bencher's published JSON Schema
  (.ci/bmf.schema.json), and no value or bound below zero.
"""

import json
import re
import sys
from pathlib import Path

import cmarkgfm
import jsonschema

GOLDEN = Path("bench-harness/tests/golden")
PAGES = ["report.md", "report.against.md"]
BMF = ["report.bmf.json", "report.against.bmf.json"]
COLUMNS = ["benchmark", "time", "change (95% CI)", "verdict"]


def check_page(name: str) -> list[str]:
    text = (GOLDEN / name).read_text()
    html = cmarkgfm.github_flavored_markdown_to_html(
        text, options=cmarkgfm.Options.CMARK_OPT_UNSAFE
    )
    wrong = []
    delimiters = [l for l in text.splitlines() if re.fullmatch(r"\|(:?-+:?\|)+", l)]
    tables = html.count("<table>")
    if tables != len(delimiters) or tables == 0:
        wrong.append(f"{name}: {len(delimiters)} tables written, {tables} rendered")
    for head in re.findall(r"<thead>(.*?)</thead>", html, re.S):
        cells = re.findall(r"<th[^>]*>(.*?)</th>", head, re.S)
        if cells != COLUMNS:
            wrong.append(f"{name}: a table's columns are {cells}")
    if "| benchmark |" in re.sub(r"<pre>.*?</pre>", "", html, flags=re.S):
        wrong.append(f"{name}: a table was rendered as text")
    if "<details><summary>" not in html or "</details>" not in html:
        wrong.append(f"{name}: the <details> block did not survive")
    return wrong


def check_bmf(name: str, schema: dict) -> list[str]:
    document = json.loads((GOLDEN / name).read_text())
    wrong = [f"{name}: {e.message}" for e in jsonschema.Draft7Validator(schema).iter_errors(document)]
    for benchmark, measures in document.items():
        for measure, metric in measures.items():
            for key, value in metric.items():
                if isinstance(value, (int, float)) and value < 0:
                    wrong.append(f"{name}: {benchmark}/{measure}/{key} is negative: {value}")
    if not document:
        wrong.append(f"{name}: no benchmark")
    return wrong


def main() -> int:
    schema = json.loads(Path(".ci/bmf.schema.json").read_text())
    jsonschema.Draft7Validator.check_schema(schema)
    wrong = [w for page in PAGES for w in check_page(page)]
    wrong += [w for bmf in BMF for w in check_bmf(bmf, schema)]
    for line in wrong:
        print(f"error: {line}", file=sys.stderr)
    print(f"{len(PAGES)} pages rendered, {len(BMF)} BMF files validated: "
          f"{'ok' if not wrong else f'{len(wrong)} problems'}")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
