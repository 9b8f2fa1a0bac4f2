# taplib.py — the TAP output of the check-*.py scripts: check () records a
# result, skip () a check that cannot run here, finish () prints them all
# with the plan and exits non-zero when one failed, with its detail as a
# comment under it. A check whose description ends in "# TODO reason" is
# a known gap: printed as failed when it fails, but not counted.
#
# Copyright 2026 The Perfscope authors
# SPDX-License-Identifier: GPL-3.0-or-later

import sys

results = []


def check(description, condition, detail=""):
    results.append((description, bool(condition), detail))


def skip(description, reason):
    results.append((f"{description} # SKIP {reason}", True, ""))


def finish():
    failed = 0
    for number, (description, passed, detail) in enumerate(results, 1):
        print(f"{'ok' if passed else 'not ok'} {number} - {description}")
        if not passed:
            # A known gap (TODO) is reported, not counted as a failure
            if " # TODO" not in description:
                failed = 1
            if detail:
                print(f"# {detail}")
    print(f"1..{len(results)}")
    sys.exit(failed)
