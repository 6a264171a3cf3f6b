"""The Spark path writes the same reports as `grove-report run`, and fails loudly.

Run with `spark/run_tests.sh` (it builds the static binary, installs Java's runtime and pyspark),
or directly: `GROVE_REPORT_BIN=/abs/grove-report spark/.venv/bin/python -m pytest -q spark/`.
The binary defaults to `.build/static/release/grove-report` in the repository.
"""

import gzip
import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

SPARK_DIR = Path(__file__).resolve().parent
REPO = SPARK_DIR.parent
sys.path.insert(0, str(SPARK_DIR))

import grove_report_spark as driver  # noqa: E402

STATIC_BINARY = REPO / ".build" / "static" / "release" / "grove-report"
BINARY = Path(os.environ.get("GROVE_REPORT_BIN", str(STATIC_BINARY))).absolute()
REPORT_FILES = (
    "attribution.csv", "attribution.json", "exposure.csv", "exposure.json",
    "preview_audit.json", "report.html", "summary.json", "rejects.ndjson",
    "exposure_daily.csv", "attribution_daily.csv",
)


def require_binary():
    if not BINARY.is_file():
        pytest.fail(f"grove-report binary not found at {BINARY}: build it with "
                    "`swift build -c release --static-swift-stdlib --scratch-path .build/static` "
                    "or set GROVE_REPORT_BIN", pytrace=False)


@pytest.fixture(scope="module")
def spark():
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    from pyspark.sql import SparkSession

    session = (
        SparkSession.builder.master("local[2]").appName("grove-report-equivalence")
        .config("spark.ui.enabled", "false")
        .config("spark.driver.memory", "2g")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


# Two preview decisions of a customer unit without customerId (one consent-denied, flagged by
# `preview` alone): the audit's `preview_unidentified_customer` is 2; the identified preview and
# the unflagged decision without customerId are not counted.
PREVIEW_UNIDENTIFIED = [
    '{"type":"decision","ts":"2026-03-01T10:00:00Z","installId":"pu-1","campaignId":"vip-offer",'
    '"variantId":"gold","isPreview":true,"unit":"customer"}',
    '{"type":"decision","ts":"2026-03-01T10:01:00Z","installId":"pu-2","campaignId":"vip-offer",'
    '"variantId":"gold","isPreview":false,"preview":true,"unit":"customer","consent":"denied"}',
    '{"type":"decision","ts":"2026-03-01T10:02:00Z","installId":"pu-3","campaignId":"vip-offer",'
    '"variantId":"gold","isPreview":true,"unit":"customer","customerId":"shopper-3"}',
    '{"type":"decision","ts":"2026-03-01T10:03:00Z","installId":"pu-4","campaignId":"vip-offer",'
    '"variantId":"silver","isPreview":false,"unit":"customer"}',
]


def write_gzip_to_plain(source, target):
    with gzip.open(source, "rb") as compressed, open(target, "wb") as plain:
        shutil.copyfileobj(compressed, plain)


@pytest.fixture(scope="module")
def logs(tmp_path_factory):
    """Generated logs laid out to exercise discovery; returns (inputs, root).

    logs/events-0001.ndjson.gz          gzip, top level
    logs/events-0002.ndjson             plain (gunzipped)
    logs/nested/deeper/events-0003.ndjson.gz
    logs/nested/alias.jsonl.gz -> ../../extra/other.gz   (link to a file: read)
    logs/link-to-nested -> nested       (link to a directory: not followed)
    logs/.hidden.ndjson, logs/.hidden-dir/x.ndjson, logs/notes.txt   (skipped)
    logs/preview-unidentified.ndjson    plain, hand-written: preview decisions of a customer unit
                                        without customerId (the generator writes none)
    extra/events.log                    named on the command line: read whatever its name
    """
    require_binary()
    root = tmp_path_factory.mktemp("spark-equivalence")
    generated = root / "logs"
    subprocess.run([str(BINARY), "generate", "--events", "20000", "--files", "3", "--seed", "5",
                    "--bad-share", "0.01", "--out", str(generated)], check=True, capture_output=True)
    extra = root / "extra"
    subprocess.run([str(BINARY), "generate", "--events", "3000", "--files", "2", "--seed", "6",
                    "--bad-share", "0.02", "--out", str(extra)], check=True, capture_output=True)
    first, second, third = sorted(generated.iterdir())
    write_gzip_to_plain(second, generated / "events-0002.ndjson")
    second.unlink()
    (generated / "nested" / "deeper").mkdir(parents=True)
    third.rename(generated / "nested" / "deeper" / third.name)
    extra_first, extra_second = sorted(extra.iterdir())
    extra_first.rename(extra / "other.gz")
    write_gzip_to_plain(extra_second, extra / "events.log")
    extra_second.unlink()
    (generated / "preview-unidentified.ndjson").write_text("".join(line + "\n" for line in PREVIEW_UNIDENTIFIED))
    (generated / "nested" / "alias.jsonl.gz").symlink_to("../../extra/other.gz")
    (generated / "link-to-nested").symlink_to("nested")
    shutil.copy(first, generated / ".hidden.ndjson.gz")
    (generated / ".hidden-dir").mkdir()
    shutil.copy(first, generated / ".hidden-dir" / "x.ndjson.gz")
    shutil.copy(first, generated / "notes.txt")
    # a truncated gzip file: an input error for `run`, and for the Spark path alike
    truncated = root / "truncated.ndjson.gz"
    truncated.write_bytes(first.read_bytes()[: first.stat().st_size // 2])
    return root


def run_reports(root, out, arguments):
    """`grove-report run` on the inputs: the reference reports."""
    completed = subprocess.run([str(BINARY), "run", *arguments, "--out", str(out)],
                               capture_output=True, cwd=root)
    return completed.returncode


def spark_reports(spark, root, out, arguments, partitions):
    old_cwd = os.getcwd()
    os.chdir(root)  # relative INPUTs, so display names are the same relative text as for `run`
    try:
        return driver.main(["--binary", str(BINARY), "--out", str(out),
                            "--partitions", str(partitions), *arguments], spark=spark)
    finally:
        os.chdir(old_cwd)


def assert_same_reports(expected_dir, actual_dir):
    assert sorted(p.name for p in actual_dir.iterdir()) == sorted(REPORT_FILES)
    for name in REPORT_FILES:
        expected = (expected_dir / name).read_bytes().splitlines(keepends=True)
        actual = (actual_dir / name).read_bytes().splitlines(keepends=True)
        if name == "summary.json":
            expected = [line for line in expected if b'"wall_seconds"' not in line]
            actual = [line for line in actual if b'"wall_seconds"' not in line]
        if expected != actual:
            for number, (want, got) in enumerate(zip(expected, actual), start=1):
                if want != got:
                    pytest.fail(f"{name} differs at line {number}:\n  run:   {want!r}\n  spark: {got!r}",
                                pytrace=False)
            pytest.fail(f"{name}: run wrote {len(expected)} lines, spark {len(actual)}", pytrace=False)


# (id, partitions, options, inputs, maxPartitionBytes): the last one groups files into tasks,
# "1" = one file per task, None = Spark's default (all these files in one or two tasks).
SCENARIOS = [
    ("p1", 1, [], ["logs/", "extra/events.log"], "128m"),
    ("p2", 2, [], ["logs/", "extra/events.log"], None),
    ("p7", 7, [], ["logs/", "extra/events.log"], "1"),
    ("p2-config-event-raw", 2,
     ["--config", str(REPO / "SampleData" / "grona-config.json"), "--preview-scope", "event",
      "--rejects-raw", "--max-reject-rate", "0.5"],
     ["extra/events.log", "logs"], "1"),
    ("p3-input-error", 3, [], ["truncated.ndjson.gz", "logs/"], None),
    ("p3-max-campaigns", 3, ["--max-campaigns", "3"], ["logs/", "extra/events.log"], None),
    ("p3-windows", 3,
     ["--conversion-window", "1", "--bind-window", "1", "--sequential-tuning", "2000"],
     ["logs/", "extra/events.log"], None),
]


@pytest.mark.parametrize("partitions,options,inputs,max_partition_bytes",
                         [scenario[1:] for scenario in SCENARIOS],
                         ids=[scenario[0] for scenario in SCENARIOS])
def test_spark_reports_are_byte_identical_to_run(spark, logs, tmp_path, partitions, options, inputs,
                                                  max_partition_bytes):
    expected_code = run_reports(logs, tmp_path / "run", [*inputs, *options])
    if max_partition_bytes is None:
        spark.conf.unset("spark.sql.files.maxPartitionBytes")
        spark.conf.unset("spark.sql.files.openCostInBytes")
    else:
        spark.conf.set("spark.sql.files.maxPartitionBytes", max_partition_bytes)
        spark.conf.set("spark.sql.files.openCostInBytes", "1")
    try:
        code = spark_reports(spark, logs, tmp_path / "spark", [*options, *inputs], partitions)
    finally:
        spark.conf.unset("spark.sql.files.maxPartitionBytes")
        spark.conf.unset("spark.sql.files.openCostInBytes")
    assert code == expected_code
    assert_same_reports(tmp_path / "run", tmp_path / "spark")
    # The ninth violation went through the stage records: per campaign and in the totals.
    audit = json.loads((tmp_path / "spark" / "preview_audit.json").read_text())
    assert audit["violations"]["preview_unidentified_customer"] == 2
    # vip-offer holds both, named or (under --max-campaigns) summed into the fold's row.
    holder = "(other campaigns)" if "--max-campaigns" in options else "vip-offer"
    vip = [campaign for campaign in audit["campaigns"] if campaign["campaign"] == holder]
    assert [campaign["violations"]["preview_unidentified_customer"] for campaign in vip] == [2]


def test_spark_submit_with_the_binary_shipped_by_files(logs, tmp_path):
    """The cluster way: spark-submit --files ships the binary; --binary names it, not a path."""
    spark_submit = Path(sys.executable).parent / "spark-submit"
    if not spark_submit.is_file():
        pytest.skip(f"no spark-submit beside {sys.executable} (pyspark's pip package installs it)")
    inputs = ["logs", "extra/events.log"]
    expected_code = run_reports(logs, tmp_path / "run", inputs)
    completed = subprocess.run(
        [str(spark_submit), "--master", "local[2]", "--conf", "spark.ui.enabled=false",
         "--files", str(BINARY), str(SPARK_DIR / "grove_report_spark.py"),
         "--binary", BINARY.name, "--out", str(tmp_path / "spark"), "--partitions", "3", *inputs],
        cwd=logs, capture_output=True, text=True,
        env={**os.environ, "PYSPARK_PYTHON": sys.executable},
    )
    assert completed.returncode == expected_code, completed.stderr[-3000:]
    assert_same_reports(tmp_path / "run", tmp_path / "spark")


def failing_wrapper(tmp_path, stage):
    """A binary that runs the real one, except that `stage` fails with a message."""
    wrapper = tmp_path / "failing-grove-report"
    wrapper.write_text(
        "#!/bin/sh\n"
        f'if [ "$1" = "{stage}" ]; then cat >/dev/null; echo "injected {stage} failure" >&2; exit 1; fi\n'
        f'exec "{BINARY}" "$@"\n'
    )
    wrapper.chmod(0o755)
    return wrapper


@pytest.mark.parametrize("stage", ["partial", "merge"])
def test_a_failing_stage_fails_the_job_and_writes_no_report(spark, logs, tmp_path, capsys, stage):
    wrapper = failing_wrapper(tmp_path, stage)
    out = tmp_path / "out"
    code = driver.main(["--binary", str(wrapper), "--out", str(out), "--partitions", "2",
                        str(logs / "logs")], spark=spark)
    assert code != 0
    assert not out.exists() or not any(out.iterdir())
    message = capsys.readouterr().err
    assert f"injected {stage} failure" in message
    assert f"failing-grove-report {stage}" in message


def test_malformed_stage_output_fails_the_job(spark, logs, tmp_path, capsys):
    wrapper = tmp_path / "chatty-grove-report"
    wrapper.write_text('#!/bin/sh\nif [ "$1" = "partial" ]; then cat >/dev/null; echo "not a record"; exit 0; fi\n'
                       f'exec "{BINARY}" "$@"\n')
    wrapper.chmod(0o755)
    out = tmp_path / "out"
    code = driver.main(["--binary", str(wrapper), "--out", str(out), str(logs / "extra" / "events.log")],
                       spark=spark)
    assert code != 0
    assert not out.exists()
    assert "not KEY<TAB>VALUE" in capsys.readouterr().err


@pytest.mark.parametrize("inputs", [["does-not-exist.ndjson"], ["-"], []], ids=["missing", "stdin", "none"])
def test_unusable_inputs_are_usage_errors(spark, logs, tmp_path, inputs):
    out = tmp_path / "out"
    code = driver.main(["--binary", str(BINARY), "--out", str(out), *[str(logs / i) if i != "-" else i
                                                                     for i in inputs]], spark=spark)
    assert code == 2
    assert not out.exists()


def test_file_uri_inputs_read_the_same_files(spark, logs, tmp_path):
    """`file://DIR` is walked like DIR; the reports name the files `file://DIR/...`."""
    root = str(logs / "logs")
    expected_code = run_reports(logs, tmp_path / "run", [root + "/", str(logs / "extra" / "events.log")])
    code = driver.main(["--binary", str(BINARY), "--out", str(tmp_path / "spark"), "--partitions", "2",
                        "file://" + root + "/", "file://" + str(logs / "extra" / "events.log")], spark=spark)
    assert code == expected_code
    rejects = tmp_path / "spark" / "rejects.ndjson"
    original = rejects.read_bytes()
    assert b'"file":"file://' in original
    rewritten = original.replace(b'"file":"file://', b'"file":"')
    rejects.write_bytes(rewritten)
    # The rewritten rejects.ndjson gets its own hash in summary.json's "outputs" too.
    summary = tmp_path / "spark" / "summary.json"
    old_hash, new_hash = (hashlib.sha256(data).hexdigest().encode() for data in (original, rewritten))
    assert old_hash in summary.read_bytes()
    summary.write_bytes(summary.read_bytes().replace(old_hash, new_hash))
    assert_same_reports(tmp_path / "run", tmp_path / "spark")


def test_a_file_spark_would_skip_is_a_usage_error(spark, logs, tmp_path, capsys):
    underscored = tmp_path / "_underscored.ndjson"
    shutil.copy(logs / "extra" / "events.log", underscored)
    code = driver.main(["--binary", str(BINARY), "--out", str(tmp_path / "out"), str(underscored)], spark=spark)
    assert code == 2
    assert not (tmp_path / "out").exists()
    assert "_underscored.ndjson" in capsys.readouterr().err


def test_hadoop_listing_follows_the_same_rules(spark, tmp_path):
    """The listing used for remote URIs (hdfs://, s3a://...), tried on the local file system."""
    for relative in ["b.gz", "a/z.jsonl", "a/y.ndjson.gz", "a-b.ndjson", ".hidden.gz", ".dir/x.gz",
                     "notes.txt", "a/c/d.jsonl.gz"]:
        (tmp_path / relative).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / relative).write_bytes(b"{}\n")
    root = "file://" + str(tmp_path)
    found = driver.discover_hadoop_inputs(spark, root + "/")
    assert [name for name, _ in found] == [
        root + "/a-b.ndjson", root + "/a/c/d.jsonl.gz", root + "/a/y.ndjson.gz", root + "/a/z.jsonl",
        root + "/b.gz",
    ]
    assert [path for _, path in found][0] == "file:" + str(tmp_path) + "/a-b.ndjson"


def test_discovery_matches_run(logs):
    found = driver.discover_local_inputs([str(logs / "logs") + "//", str(logs / "extra" / "events.log")])
    root = str(logs / "logs")
    assert [name for name, _ in found] == [
        root + "/events-0001.ndjson.gz",
        root + "/events-0002.ndjson",
        root + "/nested/alias.jsonl.gz",
        root + "/nested/deeper/events-0003.ndjson.gz",
        root + "/preview-unidentified.ndjson",
        str(logs / "extra" / "events.log"),
    ]


def test_fnv1a64_known_values():
    assert driver.fnv1a64(b"") == 0xCBF29CE484222325
    assert driver.fnv1a64("a") == 0xAF63DC4C8601EC8C
    assert driver.fnv1a64(b"foobar") == 0x85944171F73967E8


def test_shipped_binary_has_no_swift_runtime_library():
    if not BINARY.is_file():
        pytest.skip(f"the static binary was not built ({BINARY}); "
                    "swift build -c release --static-swift-stdlib --scratch-path .build/static")
    listing = subprocess.run(["ldd", str(BINARY)], capture_output=True, text=True, check=True).stdout
    assert "libswift" not in listing, listing
