"""Parses Prometheus text exposition from stdin with the reference client's own parser.

Prints one JSON object: {"families": [{"name", "type", "samples": [{"name", "labels", "value"}]}]}.
A text the parser refuses exits non-zero with the parser's error on stderr.
"""
import json
import math
import sys

from prometheus_client.parser import text_string_to_metric_families


def value(number):
    # JSON has no infinities or NaN: say them in words.
    if math.isnan(number):
        return "NaN"
    if math.isinf(number):
        return "+Inf" if number > 0 else "-Inf"
    return number


def main():
    families = []
    for family in text_string_to_metric_families(sys.stdin.read()):
        families.append(
            {
                "name": family.name,
                "type": family.type,
                "samples": [
                    {"name": sample.name, "labels": sample.labels, "value": value(sample.value)}
                    for sample in family.samples
                ],
            }
        )
    json.dump({"families": families}, sys.stdout)


if __name__ == "__main__":
    main()
