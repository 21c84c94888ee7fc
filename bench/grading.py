"""Blind grading of the generator's drafts: packets for reviewers, then the tally of their verdicts.

``prepare`` drafts each article twice, with the working tree and with an earlier commit, and
writes the two drafts of an article as ``<article>-X.yaml`` and ``<article>-Y.yaml`` in random
order, the articles split into groups (one reviewer a group). Without ``--before`` it drafts
each article once, with the working tree, as ``<article>.yaml``. With ``--copies 2`` each group
goes to two reviewers (folders ``g0`` and ``g4`` hold the same articles, with four groups), so
that the tally can say how often two reviewers agree. Each packet holds the rubric of
``bench/generator_quality.md`` and the instructions; which file is which version goes to a key
file kept apart, which reviewers must not see. ``tally`` reads the reviewers' verdict files with
the key and prints, for each version, the share acceptable with its 95% Wilson interval, the
failures by letter and by kind of fact (a draft id's first word), the articles whose drafts
are the same in both versions, and how often reviewers of the same drafts agree.

    .venv/bin/python bench/grading.py prepare --before 18e2e25 --out /tmp/packets --key /tmp/key.json bench/articles/fresh/*.txt
    .venv/bin/python bench/grading.py tally --key /tmp/key.json /tmp/packets

Reviewers write ``g<N>-verdicts.tsv`` into the packet folder: one line per question, tab-separated
``file<TAB>question id<TAB>verdict``, the verdict ``OK`` or the failed letters ("NW").
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
REPORT = REPO / "bench" / "generator_quality.md"
VERSIONS = ("before", "after")
#: The version of a draft made alone, with no earlier commit to compare it with.
ALONE = "this version"

INSTRUCTIONS = """\
Grade every question in each YAML file of your folder by the rubric in rubric.md. Use only
these files.

{pairs}Each file holds the article's full text (`articles[0].text`), the quiz's title and the
drafted questions.

How the questions are played: the player sees the quiz's title and each question's prompt and
choices, never the article; after answering, the explanation and the quote (`source`). A
question of `kind: number` has no choices: the player types a number, right when it is the
`answer` (within `tolerance`, if given); `unit` names the answer box below the prompt ("Your
answer (in years)"), and is not added to the prompt's text. A question of `kind: text` has no
choices either: the player types the answer, right when it matches one of `accept` (ignoring
case, accents and punctuation; with `fuzzy: true`, one wrong, missing or extra letter is
forgiven in an answer of six letters or more).

A question is acceptable when every point of the rubric holds; in doubt, it fails. Write
`<your folder's name>-verdicts.tsv` beside your folder: one line per question, tab-separated,
`file name<TAB>question id<TAB>verdict`, the verdict `OK` or the failed letters joined ("NW").
"""
PAIRS = """\
Each article has two files, `<article>-X.yaml` and `<article>-Y.yaml`: two independent drafts
of a quiz on the same article, which may be identical. Grade each file on its own, as if the
other did not exist: a giveaway between questions counts only within one file. """


def rubric() -> str:
    """The rubric section of the quality report."""
    text = REPORT.read_text(encoding="utf-8")
    return text[text.index("## The rubric") : text.index("\n## ", text.index("## The rubric") + 1)].strip() + "\n"


def draft(article: Path, out: Path, source: Path) -> None:
    """``quiz generate ARTICLE`` with the package in ``source``, as a new process."""
    environment = {**os.environ, "PYTHONPATH": str(source)}
    subprocess.run(
        [sys.executable, "-c", "from quiz.cli import main; main()", "generate", str(article.resolve()), "--out", str(out)],
        env=environment, cwd=tempfile.gettempdir(), check=True, capture_output=True,
    )


def prepare(articles: list[Path], before: str | None, out: Path, key_file: Path, groups: int, seed: int, copies: int) -> None:
    out.mkdir(parents=True, exist_ok=False)
    shuffled = random.Random(seed)
    order = sorted(articles)
    shuffled.shuffle(order)
    key: dict[str, str] = {}
    with tempfile.TemporaryDirectory() as scratch:
        earlier = Path(scratch) / "before"
        if before is not None:
            subprocess.run(["git", "-C", str(REPO), "worktree", "add", "--detach", str(earlier), before], check=True, capture_output=True)
        try:
            for number, article in enumerate(order):
                folder = out / f"g{number % groups}"
                folder.mkdir(exist_ok=True)
                if before is None:
                    draft(article, folder / f"{article.stem}.yaml", REPO)
                    key[article.stem] = ALONE
                    continue
                versions = list(VERSIONS)
                shuffled.shuffle(versions)
                for label, version in zip("XY", versions):
                    name = f"{article.stem}-{label}"
                    draft(article, folder / f"{name}.yaml", earlier if version == "before" else REPO)
                    key[name] = version
        finally:
            if before is not None:
                subprocess.run(["git", "-C", str(REPO), "worktree", "remove", "--force", str(earlier)], check=True, capture_output=True)
    for copy in range(1, copies):
        for group in range(groups):
            shutil.copytree(out / f"g{group}", out / f"g{group + copy * groups}")
    (out / "rubric.md").write_text(rubric(), encoding="utf-8")
    (out / "instructions.md").write_text(INSTRUCTIONS.format(pairs=PAIRS if before is not None else ""), encoding="utf-8")
    key_file.write_text(json.dumps(key, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"{len(order)} articles in {groups} groups under {out}; the key is {key_file}")


def wilson(accepted: int, total: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson interval of ``accepted`` out of ``total``."""
    if total == 0:
        return 0.0, 1.0
    share = accepted / total
    middle = share + z * z / (2 * total)
    spread = z * math.sqrt(share * (1 - share) / total + z * z / (4 * total * total))
    return (middle - spread) / (1 + z * z / total), (middle + spread) / (1 + z * z / total)


def tally(packets: Path, key_file: Path) -> str:
    key: dict[str, str] = json.loads(key_file.read_text(encoding="utf-8"))
    versions = [version for version in (*VERSIONS, ALONE) if version in key.values()]
    accepted: Counter[str] = Counter()
    graded: Counter[str] = Counter()
    letters: dict[str, Counter[str]] = {version: Counter() for version in versions}
    kinds: dict[str, Counter[tuple[str, bool]]] = {version: Counter() for version in versions}
    #: Each question's verdicts (acceptable or not), one a reviewer, for the agreement of copies.
    by_question: dict[tuple[str, str], list[bool]] = {}
    for verdicts in sorted(packets.glob("*-verdicts.tsv")):
        for number, line in enumerate(verdicts.read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip():
                continue
            fields = [field.strip() for field in line.split("\t")]
            if len(fields) < 3 or fields[0].removesuffix(".yaml") not in key:
                raise SystemExit(f"{verdicts}:{number}: not file<TAB>id<TAB>verdict of a packet file")
            version, verdict = key[fields[0].removesuffix(".yaml")], fields[2].upper()
            good = verdict == "OK"
            graded[version] += 1
            accepted[version] += good
            letters[version].update("" if good else re.sub(r"[^A-Z]", "", verdict))
            kinds[version][(fields[1].split("-")[0], good)] += 1
            by_question.setdefault((fields[0].removesuffix(".yaml"), fields[1]), []).append(good)
    lines = ["| version | acceptable | failures | by kind |", "| --- | --- | --- | --- |"]
    for version in versions:
        low, high = wilson(accepted[version], graded[version])
        share = accepted[version] / graded[version] if graded[version] else 0.0
        failures = ", ".join(f"{letter} {count}" for letter, count in letters[version].most_common())
        by_kind = ", ".join(
            f"{kind} {kinds[version][(kind, True)]}/{kinds[version][(kind, True)] + kinds[version][(kind, False)]}"
            for kind in sorted({kind for kind, _ in kinds[version]})
        )
        lines.append(
            f"| {version} | {accepted[version]} of {graded[version]}, {share:.0%} ({low:.0%}–{high:.0%}) | {failures} | {by_kind} |"
        )
    if ALONE not in versions:
        # By name: with ``--copies``, two folders hold each article.
        same = len({x.name for x in packets.glob("g*/*-X.yaml") if x.read_bytes() == x.with_name(f"{x.stem[:-2]}-Y.yaml").read_bytes()})
        lines.append(f"\n{same} of {len(key) // 2} articles have the same drafts in both versions.")
    twice = [verdicts[:2] for verdicts in by_question.values() if len(verdicts) > 1]
    if twice:
        lines.append("\n" + agreement(twice))
    return "\n".join(lines)


def agreement(pairs: list[list[bool]]) -> str:
    """How often two reviewers of the same question agree, and Cohen's kappa: the agreement
    beyond what their own rates of acceptance would give by chance."""
    agreed = sum(first == second for first, second in pairs)
    observed = agreed / len(pairs)
    first_rate = sum(first for first, _ in pairs) / len(pairs)
    second_rate = sum(second for _, second in pairs) / len(pairs)
    chance = first_rate * second_rate + (1 - first_rate) * (1 - second_rate)
    kappa = (observed - chance) / (1 - chance) if chance < 1 else 1.0
    both = sum(first and second for first, second in pairs)
    either = sum(first or second for first, second in pairs)
    return (
        f"Two reviewers graded {len(pairs)} questions: they agreed on {agreed} ({observed:.0%}), Cohen's kappa "
        f"{kappa:.2f}; {both} were acceptable to both, {either} to either."
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    prepared = commands.add_parser("prepare", help="draft the articles into blind packets")
    prepared.add_argument("articles", nargs="+", type=Path)
    prepared.add_argument("--before", help="the commit to compare the working tree with; without it, one draft an article")
    prepared.add_argument("--out", required=True, type=Path, help="a new folder for the packets")
    prepared.add_argument("--key", required=True, type=Path, help="where to write which file is which version")
    prepared.add_argument("--groups", type=int, default=4, help="reviewers, one group of articles each")
    prepared.add_argument("--seed", type=int, default=0, help="seeds the order of articles and of each pair")
    prepared.add_argument("--copies", type=int, default=1, help="reviewers of each group, each with a copy of its packet")
    tallied = commands.add_parser("tally", help="count the reviewers' verdicts by version")
    tallied.add_argument("packets", type=Path)
    tallied.add_argument("--key", required=True, type=Path)
    arguments = parser.parse_args()
    if arguments.command == "prepare":
        prepare(
            arguments.articles, arguments.before, arguments.out, arguments.key, arguments.groups, arguments.seed, arguments.copies,
        )
    else:
        print(tally(arguments.packets, arguments.key))


if __name__ == "__main__":
    main()
