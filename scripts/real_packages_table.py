#!/usr/bin/env python3
"""The markdown of docs/real-packages.md from the logs `scripts/real-packages` leaves in SCRATCH.

    python3 scripts/real_packages_table.py SCRATCH > docs/real-packages.md

SCRATCH holds packages.txt (one <set>/<name> a line), logs/<set>--<name>.* (judge's verify
JSON, stderr and exit status with times; gen --check and gen outputs; BAPCtools' generate and
run outputs with exit status and times), and the copies judge/, gen/ and bt/ whose data/
folders are compared.
"""
import filecmp
import json
import os
import re
import sys

# Why a package or a submission differs, where the logs do not say it themselves: judged by
# reading the package and both tools' output. Keyed by <set>/<name>.
NOTES = {
    "problemtools/different": "judge skips the Python 2 submission (not in Debian 12) and the checktestdata validator (a package warning: verify fails)",
    "package-format/interactive": "a stub (problem.yaml, statement, submissions.yaml): no data, no programs; neither tool has anything to run",
    "package-format/maximal": "its problem.yaml lists languages python3 and cpp: judge leaves the two PHP submissions out with a warning, as BAPCtools refuses them (`judge grade` of `with_include.php`, which reads `./data.txt` of `include/default/`, gives AC); its `.ans` files are empty (the output validator reads the input), which judge reports as a warning since a custom validator's answer files need not be outputs (BAPCtools fails them unless `ans_is_output: false`)",
    "package-format/multipass": "a stub (problem.yaml, statement): no data; neither tool has anything to run",
    "package-format/submit_answer": "submit-answer: supported by neither tool",
    "package-format/passfail": "`source_url` is deprecated in 2025-09: judge fails verify on it, BAPCtools warns and exits 1; judge also skips the checktestdata validator",
    "package-format/scoring": "as passfail; BAPCtools does not read `type: scoring` (judge's scores: 100 and 0, as the folders say)",
    "bapctools/alternativeencryption": "multi-pass; both tools give the same verdict to all 30 submissions, 2 against the package's own expectations (the two `ragnar-busy-sleep-*.py` spin 1.5 s in one pass of a 2 s limit, and the format applies the limit to each pass separately)",
    "bapctools/interactivemultipass": "interactive and multi-pass",
    "bapctools/multipass": "multi-pass",
    "bapctools/boolfind": "samples only (judge warns); BAPCtools gives `boolfind-test-loop.cc` JE (its interactor waits past BAPCtools' 60 s validator timeout), judge TLE",
    "bapctools/constants": "judge substitutes `{{constants}}` in jury programs (fixed here); verify fails only on the skipped checktestdata validator",
    "bapctools/different": "verify fails only on the skipped checktestdata validator; `*.disabled` submissions are run by neither tool",
    "bapctools/fltcmp": "samples only (judge warns)",
    "bapctools/hello": "samples only (judge warns); `test-memstatic.cc` (a 512 MiB initialised array) is CE under judge's 256 MiB binary limit, as its own comment foresees; `test-fill-stdout.cc` is OLE at the 8 MiB output limit under judge, TLE under BAPCtools",
    "bapctools/hellounix": "samples only (judge warns); no accepted submission, which judge requires",
    "bapctools/hellowholeworld": "samples only (judge warns); no input validator (judge: package warning)",
    "bapctools/identity": "BAPCtools' torture test: an unknown key in generators.yaml, checktestdata and VIVA validators (package warnings in judge); all 170 data files byte-identical to BAPCtools' since judge runs a folder program under its folder's name (generators `y`, `n`, `t`, `f`, links to one program, seed themselves from it)",
    "bapctools/testexpectations": "no input validator, which the format requires: judge fails verify on it, BAPCtools does not",
    "bapctools/testproblemconfig": "a problem.yaml test: no data, no submissions",
    "noi2017/avian": "contestants implement `encode`/`decode` against `include/<language>/`: C++ compiles `runner.cpp` with the submission, and in Python, Java and C# the included `main.py`/`Main.java`/`Main.cs` is the entry point with the contestant's `avian.*` beside it (problemtools' rule); each runner forks the contestant's encoder into a child (judge gives a package's submissions DOMjudge's 64 processes). Same scores as verifyproblem for all 8 it runs; neither runs `js_python2` (Python 2: judge skips it with a warning, verifyproblem has no PyPy 2)",
    "noi2017/subway": "judge fails verify on `graders/grader.py`, which no test group selects (`grading: custom` is absent): it is Python 2, and verifyproblem stops at its compile error (hence its 13 s) before any submission; judge's scores are those the package's folders and the default grader give",
    "po2021/onlinekval/robotdammsugaren2": "`grading: custom` (a grader summing group scores, capped at 100) and `validation: custom score`: same scores under both (verifyproblem prints them rounded); verifyproblem's errors are its own check that the output validator writes no `score.txt` on a WA verdict, which judge does not make",
    "po2022/ljusshow2": "its custom grader is Python 2 (`print \"...\"`): the package's own fault, both tools fail on it (judge: the grader does not build; verifyproblem: a compile error of the grader, then every submission JE)",
    "scc2021/secretsequence": "interactive and scoring: the same verdict and score for all 11 submissions",
    "po2024/katt/rats2": "interactive and scoring: the same verdict and score for all 7 submissions; verifyproblem's 5 errors are statement file names with spaces, which judge does not check",
    "po2021/lager/motesplats": "interactive and scoring, 259 tests: judge's verify was stopped by the 600 s timeout (load 21 to 30) before its first submission check ended; verifyproblem's run was stopped for time after its 3 accepted submissions (AC 100 each; `fredrik.py` needs 4.6 s of CPU under PyPy3, which judge runs as CPython: likely the known Python item of issue 40)",
    "bapctools/testseed": "samples only (judge warns): its generators.yaml tests BAPCtools' seeds, which judge reproduces to the byte",
}

# Verdicts that mean the same: judge's MLE is a run-time error in the format (and in
# BAPCtools).
SHORT = {"RTE": "RE", "RE": "RE", "MLE": "RE"}
# What a legacy submission folder expects, where judge's report does not say it.
FOLDER = {"accepted": "AC", "wrong_answer": "WA", "time_limit_exceeded": "TLE", "run_time_error": "RE"}
ANSI = re.compile(r"\x1b\[[0-9;]*m")
# A submission's summary line of `bt run`: cyan name, then its verdict in green (met its
# expectation) or red (did not), maybe bold.
BT_LINE = re.compile(
    r"^\x1b\[36m(?P<name>[^\x1b]+)\x1b\[0m:\s*(?P<codes>(?:\x1b\[[0-9;]*m)+)\s*(?P<verdict>[A-Z]+)\s*(?:\x1b\[[0-9;]*m)*\s*[0-9]"
)


def read(path, default=""):
    try:
        with open(path, errors="replace") as f:
            return f.read()
    except OSError:
        return default


def status(path):
    """(exit status, seconds) from a `status end start` file; (None, None) when absent."""
    parts = read(path).split()
    if not parts:
        return None, None
    seconds = float(parts[1]) - float(parts[2]) if len(parts) == 3 else None
    return int(parts[0]), seconds


def first_error(text):
    """The first error line: judge's `error:`, BAPCtools' `ERROR`/`FATAL` or red message."""
    red = ""
    for raw in text.splitlines():
        line = ANSI.sub("", raw).strip()
        if line.startswith(("error:", "ERROR", "Error")) or "FATAL" in line:
            return line
        if not red and "\x1b[31m" in raw and not BT_LINE.match(raw):
            red = line
    return red


SCRATCH = ""


def cell(text, limit=160):
    for tool in ("judge", "gen", "bt"):
        text = text.replace(f"{SCRATCH}/{tool}/", "")
    text = " ".join(text.split()).replace("|", "\\|")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def judge_result(log):
    """(submissions {path: (expected, actual, met)}, fails [check messages], error line)."""
    code, seconds = status(log + ".judge.status")
    try:
        report = json.loads(read(log + ".judge.json"))
    except ValueError:
        return {}, [], first_error(read(log + ".judge.err")) or "no report", code, seconds
    subs, fails = {}, []
    for p in report.get("problems", []):
        actual = {s["path"]: s for s in p.get("submissions", [])}
        for c in p.get("checks", []):
            name = c["name"]
            if not name.startswith("submissions/"):
                if c["status"] == "fail":
                    fails.append(f'{name}: {c["message"]}')
                continue
            s = actual.get(name)
            if c["status"] == "warn" and "not checked" in c["message"]:
                subs[name] = ("-", "skipped", None, None)
                continue
            if c["status"] == "warn" and c["message"].startswith("not run"):
                # Not judged for a fault elsewhere (no time limit to run it at).
                subs[name] = (FOLDER.get(name.split("/")[1], name.split("/")[1]), "not run", False, None)
                continue
            got_in_message = re.search(r"\bgot ([A-Z]{2,3})\b", c["message"])
            got = s["actual"] if s else (got_in_message[1] if got_in_message else c["message"].split()[0])
            exp_in_message = re.search(r"\bexpected ([A-Z/]+)", c["message"])
            exp = s["expected"] if s else (exp_in_message[1] if exp_in_message else FOLDER.get(name.split("/")[1], name.split("/")[1]))
            subs[name] = (exp, got, c["status"] != "fail", score_of(c["message"]))
    return subs, fails, "", code, seconds


def bt_result(log):
    """(submissions {path: (actual, met)}, error line, exit status, seconds)."""
    code, seconds = status(log + ".btrun.status")
    gen_code, _ = status(log + ".btgen.status")
    text = read(log + ".btrun.out")
    subs = {}
    for line in text.splitlines():
        m = BT_LINE.match(line)
        if m:
            colours = re.findall(r"\x1b\[(3[0-9])m", m["codes"])
            if colours:
                subs["submissions/" + m["name"].strip()] = (m["verdict"], colours[-1] == "32")
    error = ""
    gen_text = read(log + ".btgen.out")
    if "Did not find generators" in gen_text:
        gen_text = ""
    if not subs:
        warning = next((ANSI.sub("", l).strip() for l in text.splitlines() if "WARNING" in l), "")
        error = first_error(text) or first_error(gen_text) or warning or (
            f"bt run exit {code}" if code else "no submission ran"
        )
    elif gen_code and gen_text:
        error = "bt generate: " + (first_error(gen_text) or f"exit {gen_code}")
    return subs, error, code, seconds


# A submission's line of verifyproblem: `   accepted/a.py (Python 3 (w/PyPy3)) OK: AC (100) [...]`
# when it met its folder's expectation, `ERROR accepted/a.py (C++) got WA [...]` when not.
VP_LINE = re.compile(
    r"^(?:\s+|ERROR )(?P<name>[\w.+-]+/\S+) \((?P<lang>.*)\) (?P<how>OK: |OK with extra time: |got )"
    r"(?P<verdict>[A-Z]{2,3})(?: \((?P<score>-?[0-9.]+)\))?"
)


def vp_result(log):
    """(submissions {path: (actual, met, score)}, error line, summary, exit status, seconds)."""
    code, seconds = status(log + ".vp.status")
    text = read(log + ".vp.out")
    subs = {}
    for line in text.splitlines():
        m = VP_LINE.match(line)
        if m:
            score = m["score"]
            if score is not None:
                score = f"{float(score):g}"
            subs["submissions/" + m["name"]] = (m["verdict"], m["how"] != "got ", score)
        ce = re.match(r"^ERROR Compile error for (\S+/\S+) \(", line)
        if ce:
            subs["submissions/" + ce[1]] = ("CE", False, None)
    errors = [l for l in text.splitlines() if l.startswith(("ERROR", "FATAL", "Traceback"))]
    other = [l for l in errors if not VP_LINE.match(l) and not re.match(r"^ERROR Compile error for \S+/\S+ \(", l)]
    tested = re.search(r" tested: (\d+ errors?, \d+ warnings?)", text)
    summary = tested[1] if tested else (f"no result (exit {code})" if code is not None else "")
    if code == 124:
        summary = "timed out"
    return subs, (other[0] if other else ""), summary, code, seconds


def score_of(message):
    m = re.search(r"\bscore (-?[0-9.]+)/", message)
    return f"{float(m[1]):g}" if m else None


def incomplete(log):
    """The files a fetched copy lacked under this package, or []."""
    return [l for l in read(log + ".incomplete").splitlines() if l]


def test_files(folder):
    out = {}
    for root, _, files in os.walk(folder):
        for f in files:
            if f.endswith((".in", ".ans")):
                path = os.path.join(root, f)
                out[os.path.relpath(path, folder)] = path
    return out


def data_cell(scratch, pkg, log):
    gens = os.path.isfile(os.path.join(scratch, "judge", pkg, "generators", "generators.yaml"))
    if not gens:
        n = len([f for f in test_files(os.path.join(scratch, "judge", pkg, "data")) if f.endswith(".in")])
        return f"committed ({n} input{'s' if n != 1 else ''})"
    parts = []
    check, _ = status(log + ".gencheck.status")
    out = ANSI.sub("", read(log + ".gencheck.out")).strip().splitlines()
    committed = test_files(os.path.join(scratch, "judge", pkg, "data"))
    counts = re.search(r"(\d+) files? differing, (\d+) missing, (\d+) made by no rule", "\n".join(out))
    if check == 0:
        parts.append("committed = judge's" if committed else "none committed")
    elif counts and counts[1] == "0" and counts[3] == "0":
        # Only files not committed: what is committed is what judge makes.
        parts.append(f"committed = judge's, {counts[2]} files not committed" if committed else "none committed")
    elif counts:
        parts.append(f"committed: {counts[1]} files differ from judge's, {counts[3]} made by no rule")
    elif out:
        parts.append("judge gen --check: " + (first_error("\n".join(out)) or out[-1]))
    gen, _ = status(log + ".gen.status")
    if gen:
        return "; ".join(parts + ["judge gen failed: " + first_error(read(log + ".gen.out"))])
    mine = test_files(os.path.join(scratch, "gen", pkg, "data"))
    theirs = test_files(os.path.join(scratch, "bt", pkg, "data"))
    if not theirs:
        parts.append(f"judge made {len(mine)} files; BAPCtools made none")
    else:
        same = [f for f in mine if f in theirs and filecmp.cmp(mine[f], theirs[f], shallow=False)]
        only = sorted(set(mine) ^ set(theirs))
        differ = sorted(f for f in mine if f in theirs and f not in same)
        if not only and not differ:
            parts.append(f"judge's {len(same)} files = BAPCtools'")
        else:
            what = [f"judge's {len(same)} files = BAPCtools'"]
            if differ:
                what.append(f"{len(differ)} differ ({', '.join(differ[:3])})")
            if only:
                what.append(f"{len(only)} made by one tool only ({', '.join(only[:3])})")
            parts.append(", ".join(what))
    return "; ".join(parts)


def secs(s):
    return "-" if s is None else f"{s:.1f} s"


def main():
    global SCRATCH
    scratch = SCRATCH = os.path.abspath(sys.argv[1])
    packages = [p for p in read(os.path.join(scratch, "packages.txt")).split() if p]
    summary, detail, clean, skipped = [], [], [], []
    totals = {"subs": 0, "agree": 0, "judge_ok": 0, "peer_ok": 0, "both_ok": 0, "scored": 0, "same_score": 0}
    contests = set()
    for pkg in packages:
        log = os.path.join(scratch, "logs", pkg.replace("/", "--"))
        lacking = incomplete(log)
        if lacking:
            skipped.append(f"{pkg} ({len(lacking)} files, e.g. `{lacking[0]}`)")
            continue
        if not os.path.exists(log + ".judge.status"):
            continue  # not run (yet)
        contests.add(pkg.split("/")[0])
        jsubs, jfails, jerror, jcode, jsec = judge_result(log)
        bsubs, berror, bcode, bsec = bt_result(log)
        vsubs, verror, vsummary, vcode, vsec = vp_result(log)
        ran_bt = bcode is not None
        # The peer that ran: BAPCtools reads 2025-09, verifyproblem the rest.
        psubs = {k: (v[0], v[1], None) for k, v in bsubs.items()} if ran_bt else vsubs
        names = sorted(set(jsubs) | set(psubs))
        agree = counted = 0
        for n in names:
            exp, jgot, jmet, jscore = jsubs.get(n, ("-", "-", None, None))
            pgot, pmet, pscore = psubs.get(n, ("-", None, None))
            if jgot in ("-", "skipped") and pgot == "-":
                # Run by neither tool (`.disabled` names, languages neither runs).
                detail.append(f"| {pkg} | {n.removeprefix('submissions/')} | - | skipped | not run | - |")
                continue
            same = SHORT.get(jgot, jgot) == SHORT.get(pgot, pgot) and jgot not in ("-", "skipped")
            if jscore is not None and pscore is not None:
                # verifyproblem prints scores rounded to whole points: compare at that precision.
                same_score = f"{float(jscore):.0f}" == f"{float(pscore):.0f}"
                totals["scored"] += 1
                totals["same_score"] += same_score
                same = same and same_score
            agree += same
            counted += 1
            totals["subs"] += 1
            totals["agree"] += same
            totals["judge_ok"] += bool(jmet)
            totals["peer_ok"] += bool(pmet)
            totals["both_ok"] += bool(jmet) and bool(pmet)
            mark = lambda met: "" if met is None else (" ✓" if met else " ✗")
            pts = lambda score: "" if score is None else f" {score}"
            detail.append(
                f"| {pkg} | {n.removeprefix('submissions/')} | {exp} | {jgot}{pts(jscore)}{mark(jmet)} | "
                f"{pgot}{pts(pscore)}{mark(pmet)} | {'yes' if same else 'no'} |"
            )
        jmet = sum(1 for v in jsubs.values() if v[2])
        jsubs_run = {k: v for k, v in jsubs.items() if v[1] != "skipped"}
        if jerror:
            jcell = "error: " + cell(jerror.removeprefix("error: "))
        elif jcode == 124:
            jcell = "timed out"
        else:
            jcell = f"{jmet}/{len(jsubs_run)} as expected; verify " + ("passes" if jcode == 0 else "fails")
            if jfails:
                jcell += ": " + cell(jfails[0], 120)
        bcell = vcell = "-"
        if ran_bt:
            if berror and not bsubs:
                bcell = cell(berror)
            else:
                bcell = f"{sum(1 for v in bsubs.values() if v[1])}/{len(bsubs)} as expected; exit {bcode}"
                if berror:
                    bcell += "; " + cell(berror, 100)
        elif vcode is not None:
            vcell = f"{sum(1 for v in vsubs.values() if v[1])}/{len(vsubs)} as expected; {vsummary}"
            if verror:
                vcell += "; " + cell(verror, 120)
        agree_cell = f"{agree}/{counted}" if jsubs and psubs else "-"
        if ran_bt and bcode == 0 and bsubs or not ran_bt and vsummary.startswith("0 errors"):
            clean.append((pkg, jcode == 0 and not jerror, agree, counted))
        summary.append(
            f"| {pkg} | {cell(data_cell(scratch, pkg, log))} | {jcell} | {bcell} | {vcell} | {agree_cell} | "
            f"{secs(jsec)} | {secs(bsec)} | {secs(vsec)} | {cell(NOTES.get(pkg, ''), 400)} |"
        )
    print(TABLE_START)
    print()
    names = ("judge-version.txt", "bt-version.txt", "vp-version.txt")
    versions = [(read(os.path.join(scratch, f)).strip().splitlines() or [""])[0] for f in names]
    versions[1] = versions[1].removeprefix("BAPCtools ")
    versions[2] = versions[2].split(". ")[0]
    loads = []
    for pkg in packages:
        parts = read(os.path.join(scratch, "logs", pkg.replace("/", "--") + ".load")).split()
        if parts:
            loads.append(float(parts[0]))
    if any(versions):
        line = f"Made with {versions[0]}, BAPCtools {versions[1]} and problemtools' {versions[2]}"
        if loads:
            line += f"; load average (1 min, 2 cores) {min(loads):.0f} to {max(loads):.0f} as the packages ended"
        print(line + ".")
        print()
    print(
        "| package | data | judge | BAPCtools | verifyproblem | same verdicts | judge time | BAPCtools time "
        "| verifyproblem time | notes |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    print("\n".join(summary))
    print()
    print(
        f"{len(summary)} packages from {len(contests)} sets, {totals['subs']} jury submissions: "
        f"{totals['judge_ok']} as expected under judge, {totals['peer_ok']} under the peer (BAPCtools or "
        f"verifyproblem), {totals['both_ok']} under both; {totals['agree']} with the same verdict from both; "
        f"{totals['same_score']} of the {totals['scored']} scored by both with the same score."
    )
    print()
    passed = [c for c in clean if c[1]]
    print(
        f"The peer verifies {len(clean)} packages without error (`bt run` exit 0, or verifyproblem with 0 errors); "
        f"judge's verify passes {len(passed)} of them, "
        f"and gives the same verdict to {sum(c[2] for c in clean)} of their {sum(c[3] for c in clean)} "
        "submissions run by both. The notes say why the others differ."
    )
    print()
    if skipped:
        print(
            "Not run, as the fetched copy lacks files of 4 MiB or more: " + "; ".join(skipped) + "."
        )
        print()
    print("| package | submission | expected (judge's reading) | judge | peer | same |")
    print("| --- | --- | --- | --- | --- | --- |")
    print("\n".join(detail))
    print()
    print(TABLE_END)

def extract(git, dest):
    """Writes the newest commit of the bare copy GIT into DEST, leaving out every file whose
    content the copy lacks (fetched snapshots hold no file of 4 MiB or more), listed in
    DEST/.missing-from-copy. A symbolic link is kept only when it stays inside DEST."""
    import subprocess

    tree = subprocess.run(["git", "--git-dir", git, "ls-tree", "-r", "-z", "HEAD"], capture_output=True, check=True)
    entries = []
    for e in tree.stdout.split(b"\0"):
        if e:
            meta, path = e.split(b"\t", 1)
            mode, kind, sha = meta.split()
            if kind == b"blob":
                entries.append((mode, sha, path.decode("utf-8", "surrogateescape")))
    cat = subprocess.Popen(["git", "--git-dir", git, "cat-file", "--batch"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    missing = []
    root = os.path.realpath(dest)
    for mode, sha, path in entries:
        cat.stdin.write(sha + b"\n")
        cat.stdin.flush()
        header = cat.stdout.readline().split()
        if header[-1] == b"missing":
            missing.append(path)
            continue
        body = cat.stdout.read(int(header[2]))
        cat.stdout.read(1)
        target = os.path.join(dest, path)
        if os.path.realpath(os.path.dirname(target)).startswith(root) is False or ".." in path.split("/"):
            continue
        os.makedirs(os.path.dirname(target), exist_ok=True)
        if mode == b"120000":
            link = body.decode("utf-8", "surrogateescape")
            if os.path.realpath(os.path.join(os.path.dirname(target), link)).startswith(root + os.sep):
                os.symlink(link, target)
            continue
        with open(target, "wb") as f:
            f.write(body)
        if mode == b"100755":
            os.chmod(target, 0o755)
    cat.stdin.close()
    cat.wait()
    with open(os.path.join(dest, ".missing-from-copy"), "w") as f:
        f.write("".join(p + "\n" for p in missing))


TABLE_START = "<!-- table: made by scripts/real-packages from its logs; do not edit by hand -->"
TABLE_END = "<!-- end of table -->"


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--extract":
        extract(sys.argv[2], sys.argv[3])
        sys.exit(0)
    # With --into PAGE: the page with its table (between the two markers) replaced.
    if len(sys.argv) == 4 and sys.argv[2] == "--into":
        import contextlib
        import io

        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            main()
        page = read(sys.argv[3])
        if TABLE_START in page and TABLE_END in page:
            head = page[: page.index(TABLE_START)]
            tail = page[page.index(TABLE_END) + len(TABLE_END) :]
            sys.stdout.write(head + buf.getvalue().rstrip("\n") + tail)
        else:
            sys.stdout.write(page + buf.getvalue())
    else:
        main()
