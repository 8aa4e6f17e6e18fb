#!/usr/bin/python3
"""The first column of the first row a query returns, from a database opened read-only (for the
end-to-end scripts, which check what a session saved). Prints nothing when there is no row.

    tests/sqlite_value.py DB QUERY
"""
import sqlite3
import sys

if len(sys.argv) != 3:
    sys.exit(__doc__)
row = sqlite3.connect(f"file:{sys.argv[1]}?mode=ro", uri=True).execute(sys.argv[2]).fetchone()
print(row[0] if row else "")
