#!/usr/bin/env python3
"""Stale data is seen when it ages: the rules of data/freshness.csv against the data tables.

Usage: check_freshness.py DATA_DIR [--today YYYY-MM-DD] [--audit]

Default (CTest `data.freshness`): for each rule, the newest value of its column must be at most `max_months` old on
--today (default: today, UTC, the build's date); exit 1 naming each table that is stale. --audit (scripts/data-audit,
not in CI: refreshing needs the sources): lists every price row older than its table's rule, oldest first (an old
release stays a fact), and the stale tables; exit 0.
Dates are YYYY-MM-DD or YYYY-MM (a month counts from its first day).
"""
import argparse
import csv
import datetime
import os
import re
import sys

DATE = re.compile(r"^(\d{4})-(\d{2})(?:-(\d{2}))?$")


def parse_date(text):
    m = DATE.match(text.strip())
    if not m:
        return None
    return datetime.date(int(m.group(1)), int(m.group(2)), int(m.group(3) or 1))


def months_before(day, months):
    month = day.month - months
    year = day.year + (month - 1) // 12
    month = (month - 1) % 12 + 1
    return datetime.date(year, month, min(day.day, 28))


def read(data_dir, name):
    with open(os.path.join(data_dir, name), newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("data_dir")
    ap.add_argument("--today", type=lambda s: datetime.date.fromisoformat(s),
                    default=datetime.datetime.now(datetime.timezone.utc).date())
    ap.add_argument("--audit", action="store_true")
    a = ap.parse_args(argv[1:])
    problems, stale_rows = [], []
    for rule in read(a.data_dir, "freshness.csv"):
        table, column, months = rule["table"], rule["column"], int(rule["max_months"])
        oldest_allowed = months_before(a.today, months)
        try:
            rows = read(a.data_dir, table)
        except OSError as e:
            problems.append(f"{table}: cannot be read ({e})")
            continue
        if rows and column not in rows[0]:
            problems.append(f"freshness.csv: {table} has no column '{column}'")
            continue
        dated = [(parse_date(r[column]), line, r) for line, r in enumerate(rows, start=2) if r[column].strip()]
        bad = [line for d, line, _ in dated if d is None]
        if bad:
            problems.append(f"{table}: {column} is not YYYY-MM-DD or YYYY-MM on lines {bad[:5]}")
        dated = [x for x in dated if x[0] is not None]
        if not dated:
            problems.append(f"{table}: no {column} at all")
            continue
        newest = max(d for d, _, _ in dated)
        if newest < oldest_allowed:
            problems.append(f"{table}: the newest {column} is {newest}, older than {months} months before {a.today} "
                            f"({rule['kind']}: {rule['why']}); refresh the table from its sources (scripts/data-audit)")
        # An old release is still a fact; an old price is not: only prices go stale row by row.
        for d, line, r in dated if rule["kind"] == "price" else []:
            if d < oldest_allowed:
                name = r.get("name") or r.get("offer") or r.get("currency") or r.get("torch") or ""
                stale_rows.append((d, table, line, name, column))
    if a.audit:
        for d, table, line, name, column in sorted(stale_rows):
            print(f"{d}  {table}:{line}  {name}  ({column})")
        print(f"{len(stale_rows)} rows older than their table's rule on {a.today}")
        for p in problems:
            print("stale table: " + p)
        return 0
    for p in problems:
        print("FAIL " + p)
    print(f"freshness: {len(problems)} stale or unreadable table(s) on {a.today}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
