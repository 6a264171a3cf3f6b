#!/usr/bin/env python3
"""Run grove-report on Apache Spark: Spark moves the data, grove-report does the work.

    spark-submit --files /abs/path/grove-report spark/grove_report_spark.py \\
        --binary /abs/path/grove-report --out DIR [--partitions P] [--config FILE] \\
        [--preview-scope unit|event] [--max-reject-rate R] [--rejects-raw] \\
        [--conversion-window HOURS] [--bind-window DAYS] [--sequential-tuning UNITS] INPUT...

The pipeline (see spark/README.md):

    partial (one process per input file)
      -> shuffle by KEY -> merge --join 1
      -> shuffle by KEY -> merge --join 2 [--bind-window DAYS]
      -> shuffle by KEY -> merge --join 3 [--conversion-window HOURS]
      -> merge (per partition, pre-aggregation)
      -> collect on the driver -> render --out DIR

Every stage runs the grove-report binary as a child process from a `mapPartitions` helper that
streams the records through it, checks its exit code and raises with its stderr when it fails,
so a failing stage fails the Spark job; `render` is only started once every record has been
collected, so a failed job writes no report file. Records are `KEY<TAB>VALUE` lines; shuffles
place a record in partition `fnv1a64(KEY) % P`.

Exit codes: render's (0 ok, 1 input errors or reject rate above --max-reject-rate), 2 for a
usage error (including an input that does not exist), 1 when the Spark job fails.
"""

import argparse
import os
import re
import stat
import subprocess
import sys
import threading
import time

FNV_OFFSET_BASIS = 0xCBF29CE484222325
FNV_PRIME = 0x100000001B3
_MASK64 = 0xFFFFFFFFFFFFFFFF

# `.ndjson.gz` and `.jsonl.gz` end in `.gz` too.
LOG_SUFFIXES = (".ndjson", ".jsonl", ".gz")

# The Hadoop glob characters; a path holding one must be escaped to be read literally.
_GLOB_CHARS = re.compile(r"([\\{}\[\]*?])")
_URI_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")

# How much of a failing stage's stderr is kept for the error message.
_STDERR_LIMIT = 64 * 1024


class UsageError(Exception):
    """A mistake on the command line (exit 2)."""


class StageError(RuntimeError):
    """A grove-report stage exited non-zero or wrote something that is not a record."""


def fnv1a64(key):
    """FNV-1a, 64 bits, over the UTF-8 bytes of a record KEY: the shuffle partitioner.

    Offset basis 0xcbf29ce484222325, prime 0x100000001b3; the partition is `hash % P`.
    """
    if isinstance(key, str):
        key = key.encode("utf-8")
    h = FNV_OFFSET_BASIS
    for byte in key:
        h = ((h ^ byte) * FNV_PRIME) & _MASK64
    return h


# ---------------------------------------------------------------------------------------------
# Input discovery


def _has_log_suffix(name):
    return name.endswith(LOG_SUFFIXES)


def _trim_trailing_slashes(path):
    while len(path) > 1 and path.endswith("/"):
        path = path[:-1]
    return "" if path == "/" else path


def discover_local_inputs(arguments):
    """Expand INPUT arguments into the files to read, exactly like `grove-report run` does.

    Returns a list of `(display_name, path)` in reading order; a file's position in it is the
    `--index` given to `partial`. docs/INPUTS.md: a file named on the command line is read
    whatever its name and shown as given; a directory is walked recursively for regular files
    (or links to them) whose name ends in `.ndjson`, `.jsonl`, `.ndjson.gz`, `.jsonl.gz` or
    `.gz`, in byte-wise sorted order of the path below the directory, skipping hidden entries
    (name starting with `.`) and never following links to directories; such a file is shown as
    `DIR/relative/path` (DIR without its trailing slashes). Unlike `run`, which lists a missing
    input or an unreadable directory as an input error, this raises `UsageError`: a Spark job
    cannot report a file it never read. `-` (standard input) is a `UsageError` too.
    """
    files = []
    for argument in arguments:
        if argument == "-":
            raise UsageError("standard input ('-') cannot be read on Spark; name files or directories")
        try:
            info = os.stat(argument)
        except OSError as error:
            raise UsageError(f"cannot open {argument}: {error.strerror}") from None
        if not stat.S_ISDIR(info.st_mode):
            files.append((argument, argument))
            continue
        root = _trim_trailing_slashes(argument)
        relatives = []
        _walk(os.fsencode(argument), b"", relatives, root)
        relatives.sort()  # bytes: byte-wise order
        for relative in relatives:
            suffix = os.fsdecode(relative)
            shown = root + "/" + relative.decode("utf-8", "replace")
            files.append((shown, argument + "/" + suffix))
    return files


def _walk(directory, relative, into, display_root):
    full = directory + b"/" + relative if relative else directory
    try:
        names = os.listdir(full)
    except OSError as error:
        shown = display_root + ("/" + relative.decode("utf-8", "replace") if relative else "")
        raise UsageError(f"cannot read directory {shown}: {error.strerror}") from None
    for name in names:
        if name.startswith(b"."):
            continue
        child_relative = relative + b"/" + name if relative else name
        child_path = directory + b"/" + child_relative
        try:
            link_info = os.lstat(child_path)
        except OSError:
            continue
        decoded = name.decode("utf-8", "replace")
        if stat.S_ISDIR(link_info.st_mode):
            _walk(directory, child_relative, into, display_root)
        elif stat.S_ISREG(link_info.st_mode):
            if _has_log_suffix(decoded):
                into.append(child_relative)
        elif stat.S_ISLNK(link_info.st_mode):
            try:
                target = os.stat(child_path)
            except OSError:
                continue
            if stat.S_ISREG(target.st_mode) and _has_log_suffix(decoded):
                into.append(child_relative)


def discover_hadoop_inputs(spark, argument):
    """Expand one `scheme://...` INPUT with Hadoop's FileSystem API (remote storage).

    The same rules as `discover_local_inputs`, except that links are whatever the file system
    reports (object stores have none). Returns `(display_name, qualified_path)` pairs.
    """
    jvm = spark.sparkContext._jvm
    conf = spark.sparkContext._jsc.hadoopConfiguration()
    path = jvm.org.apache.hadoop.fs.Path(argument)
    fs = path.getFileSystem(conf)
    try:
        status = fs.getFileStatus(path)
    except Exception:  # py4j wraps java.io.FileNotFoundException
        raise UsageError(f"cannot open {argument}: No such file or directory") from None
    if not status.isDirectory():
        return [(argument, status.getPath().toString())]
    root = _trim_trailing_slashes(argument)
    found = []  # (relative path bytes, qualified path)
    pending = [(status.getPath(), b"")]
    while pending:
        directory, relative = pending.pop()
        for child in fs.listStatus(directory):
            name = child.getPath().getName()
            if name.startswith("."):
                continue
            child_relative = relative + b"/" + name.encode("utf-8") if relative else name.encode("utf-8")
            if child.isDirectory():
                pending.append((child.getPath(), child_relative))
            elif child.isFile() and _has_log_suffix(name):
                found.append((child_relative, child.getPath().toString()))
    found.sort(key=lambda item: item[0])
    return [(root + "/" + rel.decode("utf-8"), qualified) for rel, qualified in found]


def discover_inputs(spark, arguments):
    """All input files as `(display_name, qualified_path)`, in `run`'s order (index = position)."""
    jvm = spark.sparkContext._jvm
    conf = spark.sparkContext._jsc.hadoopConfiguration()
    files = []
    for argument in arguments:
        local_argument, display_root = argument, None
        if argument.startswith("file:"):
            # A local file system: walk it like `run` (links to directories not followed).
            local_argument = jvm.org.apache.hadoop.fs.Path(argument).toUri().getPath()
            display_root = _trim_trailing_slashes(argument)
        elif _URI_SCHEME.match(argument):
            files.extend(discover_hadoop_inputs(spark, argument))
            continue
        for shown, local in discover_local_inputs([local_argument]):
            if display_root is not None:
                shown = argument if shown == local_argument else \
                    display_root + shown[len(_trim_trailing_slashes(local_argument)):]
            # Qualify the way Spark's file sources do, so the `path` column maps back to it.
            uri = jvm.java.io.File(os.path.abspath(local)).toURI()
            hadoop_path = jvm.org.apache.hadoop.fs.Path(uri)
            fs = hadoop_path.getFileSystem(conf)
            files.append((shown, fs.makeQualified(hadoop_path).toString()))
    for shown, path in files:
        if ":" in path.rsplit("/", 1)[-1]:
            raise UsageError(f"Hadoop cannot read a file whose name holds ':': {shown}; rename or link it")
    return files


# ---------------------------------------------------------------------------------------------
# Running a stage inside a Spark task


def resolve_binary(binary):
    """The grove-report executable on this machine: `binary` if it is an existing absolute path
    here, else the copy shipped with `spark-submit --files` (or `SparkContext.addFile`)."""
    if os.path.isabs(binary) and os.access(binary, os.X_OK) and os.path.isfile(binary):
        return binary
    from pyspark import SparkFiles

    shipped = SparkFiles.get(os.path.basename(binary))
    if os.path.isfile(shipped):
        if not os.access(shipped, os.X_OK):
            os.chmod(shipped, os.stat(shipped).st_mode | 0o111)
        return shipped
    raise StageError(f"grove-report binary not found: neither {binary} nor the shipped {shipped}")


def run_stage(binary, arguments, chunks):
    """Stream `chunks` (bytes) through `binary arguments...`; yield its stdout as records.

    The child gets an empty environment, stdin is fed from a thread while stdout is read here
    (so neither pipe can fill up and deadlock), stderr is drained by a third thread. Each stdout
    line must be `KEY<TAB>VALUE`; `(KEY, VALUE)` bytes pairs are yielded. When the child exits
    non-zero, writes a malformed line, or the input iterator fails, a `StageError` naming the
    stage and carrying the child's stderr is raised, which fails the Spark task.
    """
    stage = " ".join([os.path.basename(binary)] + list(arguments))
    process = subprocess.Popen(
        [resolve_binary(binary)] + list(arguments),
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        env={}, close_fds=True,
    )
    feed_error = []
    stderr_tail = []

    def feed():
        try:
            for chunk in chunks:
                process.stdin.write(chunk)
        except BrokenPipeError:
            pass  # the child stopped reading: its exit code tells why
        except BaseException as error:  # the upstream iterator failed
            feed_error.append(error)
        finally:
            try:
                process.stdin.close()
            except BrokenPipeError:
                pass

    def drain():
        size = 0
        for block in iter(lambda: process.stderr.read(8192), b""):
            if size < _STDERR_LIMIT:
                stderr_tail.append(block)
                size += len(block)

    threads = [threading.Thread(target=feed, daemon=True), threading.Thread(target=drain, daemon=True)]
    for thread in threads:
        thread.start()
    finished = False
    try:
        for line in process.stdout:
            key, tab, value = line.rstrip(b"\n").partition(b"\t")
            if not tab or not key:
                raise StageError(f"{stage} wrote a line that is not KEY<TAB>VALUE: {line[:200]!r}")
            yield key, value
        finished = True
    finally:
        if not finished:
            process.kill()
        status = process.wait()
        for thread in threads:
            thread.join()
        process.stdout.close()
        process.stderr.close()
    if feed_error:
        raise StageError(f"{stage}: reading the stage's input failed: {feed_error[0]!r}") from feed_error[0]
    if status != 0:
        lines = b"".join(stderr_tail).decode("utf-8", "replace").strip().splitlines()
        message = " | ".join(line.strip() for line in lines if line.strip())  # keep it one line
        raise StageError(f"{stage} failed with exit code {status}: {message or '(no stderr)'}")


def _record_lines(records, batch=512):
    """`(KEY, VALUE)` pairs as `KEY<TAB>VALUE\\n` byte chunks, a few hundred records at a time."""
    buffer = []
    for key, value in records:
        buffer.append(key)
        buffer.append(b"\t")
        buffer.append(value)
        buffer.append(b"\n")
        if len(buffer) >= 4 * batch:
            yield b"".join(buffer)
            buffer = []
    if buffer:
        yield b"".join(buffer)


def _nonempty(iterator):
    """`(first, rest)` when the iterator has an element, else None (no process for empty input)."""
    for first in iterator:
        return first, iterator
    return None


def partial_partition(binary, names, extra_arguments):
    """mapPartitions function for the `partial` stage: one process per input file (row)."""

    def run(rows):
        for row in rows:
            path = row[0]
            if path not in names:
                raise StageError(f"Spark read a file that was not asked for: {path}")
            content = bytes(row[1])
            for name, index in names[path]:
                arguments = ["partial", "--name", name, "--index", str(index)] + list(extra_arguments)
                yield from run_stage(binary, arguments, iter([content]))

    return run


def merge_partition(binary, arguments):
    """mapPartitions function for a `merge` stage over `(KEY, VALUE)` pairs."""

    def run(records):
        first = _nonempty(iter(records))
        if first is None:
            return
        head, rest = first

        def chained():
            yield head
            yield from rest

        yield from run_stage(binary, ["merge"] + list(arguments), _record_lines(chained()))

    return run


# ---------------------------------------------------------------------------------------------
# The driver


def parse_arguments(argv):
    parser = argparse.ArgumentParser(
        prog="grove_report_spark.py",
        description="Run grove-report's partial/merge/render stages on Apache Spark.",
    )
    parser.add_argument("--binary", required=True,
                        help="absolute path of the grove-report executable (ship it with --files)")
    parser.add_argument("--out", required=True, help="directory for the report files")
    parser.add_argument("--partitions", type=int, default=None,
                        help="shuffle partitions (default: Spark's default parallelism)")
    parser.add_argument("--config", help="Grona configuration export, read on the driver by render")
    parser.add_argument("--preview-scope", choices=("unit", "event"), default=None)
    parser.add_argument("--max-reject-rate", default=None)
    parser.add_argument("--max-campaigns", default=None,
                        help="name at most N campaigns in each report (render checks the value)")
    parser.add_argument("--rejects-raw", action="store_true")
    parser.add_argument("--conversion-window", default=None,
                        help="HOURS after first exposure an order converts (merge --join 3 checks the value)")
    parser.add_argument("--bind-window", default=None,
                        help="DAYS after its click a binding attributes it (merge --join 2 checks the value)")
    parser.add_argument("--sequential-tuning", default=None,
                        help="UNITS at which the always-valid interval is tightest (render checks the value)")
    parser.add_argument("--master", default=None,
                        help="Spark master when started with plain python (e.g. local[2])")
    parser.add_argument("inputs", nargs="*", metavar="INPUT")

    def fail(message):
        raise UsageError(message)

    parser.error = fail  # a usage error is reported by main() (exit 2), never sys.exit from here
    options = parser.parse_args(argv)
    if not options.inputs:
        raise UsageError("name at least one INPUT file or directory")
    if "-" in options.inputs:
        raise UsageError("standard input ('-') cannot be read on Spark; name files or directories")
    if options.partitions is not None and options.partitions < 1:
        raise UsageError("--partitions must be at least 1")
    return options


def _job_failure_message(error):
    """One line out of a Spark job failure: the stage error raised in a task, if there is one."""
    text = str(error)
    for line in text.splitlines():
        marker = line.find("StageError: ")
        if marker >= 0:
            return line[marker + len("StageError: "):].strip()
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[0] if lines else type(error).__name__


def build_pipeline(spark, files, options, binary, partitions):
    """The RDD of final records: partial, three shuffle+join stages, per-partition pre-merge."""
    names = {}  # qualified path -> [(display name, index)]: a file named twice is read twice
    for index, (name, path) in enumerate(files):
        names.setdefault(path, []).append((name, index))
    try:
        frame = spark.read.format("binaryFile").load([_GLOB_CHARS.sub(r"\\\1", path) for path in names])
        jvm = spark.sparkContext._jvm
        # inputFiles() gives URIs (percent-encoded); the `path` column gives Path.toString().
        listed = {jvm.org.apache.hadoop.fs.Path(jvm.java.net.URI(uri)).toString() for uri in frame.inputFiles()}
    except Exception as error:  # e.g. Hadoop rejects a name with both ':' and glob characters
        raise UsageError(f"Spark cannot list the input files: {_job_failure_message(error)}") from None
    missing = [path for path in names if path not in listed]
    if missing:
        # e.g. Spark's file sources skip names starting with `_` or `.`
        raise UsageError(f"Spark's file reader does not list {missing[0]}: rename or link it")
    contents = frame.select("path", "content").rdd
    partial_arguments = ["--rejects-raw"] if options.rejects_raw else []
    records = contents.mapPartitions(partial_partition(binary, names, partial_arguments))
    for join in (1, 2, 3):
        arguments = ["--join", str(join)]
        if join == 1 and options.preview_scope:
            arguments += ["--preview-scope", options.preview_scope]
        if join == 2 and options.bind_window is not None:
            arguments += ["--bind-window", options.bind_window]
        if join == 3 and options.conversion_window is not None:
            arguments += ["--conversion-window", options.conversion_window]
        records = records.partitionBy(partitions, partitionFunc=fnv1a64)
        # Not preservesPartitioning: a join stage writes new keys, and PySpark would then take
        # the next partitionBy with the same partitioner for a no-op and skip the shuffle.
        records = records.mapPartitions(merge_partition(binary, arguments))
    return records.mapPartitions(merge_partition(binary, []))


def render(binary, options, records, wall_seconds):
    """Feed the final records to `grove-report render` on the driver; return its exit code."""
    arguments = [binary, "render", "--out", options.out]
    if options.config:
        arguments += ["--config", options.config]
    if options.rejects_raw:
        arguments += ["--rejects-raw"]
    if options.max_reject_rate is not None:
        arguments += ["--max-reject-rate", options.max_reject_rate]
    if options.max_campaigns is not None:
        arguments += ["--max-campaigns", options.max_campaigns]
    if options.sequential_tuning is not None:
        arguments += ["--sequential-tuning", options.sequential_tuning]
    arguments += ["--wall-seconds", f"{wall_seconds:.6f}"]
    process = subprocess.Popen(arguments, stdin=subprocess.PIPE, env={}, close_fds=True)
    try:
        for chunk in _record_lines(records):
            process.stdin.write(chunk)
    except BrokenPipeError:
        pass  # render stopped early; its exit code and stderr say why
    finally:
        try:
            process.stdin.close()
        except BrokenPipeError:
            pass
    return process.wait()


def main(argv=None, spark=None):
    """Run the pipeline; returns the exit code. `spark`: an existing SparkSession to use."""
    started = time.monotonic()
    own_session = False
    try:
        options = parse_arguments(sys.argv[1:] if argv is None else argv)
        if spark is None:
            from pyspark.sql import SparkSession

            builder = SparkSession.builder.appName("grove-report")
            if options.master:
                builder = builder.master(options.master)
                if options.master.startswith("local"):
                    # workers on this machine: the interpreter that has pyspark, not PATH's python3
                    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
            spark = builder.getOrCreate()
            own_session = True
        sc = spark.sparkContext
        binary = options.binary
        if not (os.path.isabs(binary) and os.path.isfile(binary)):
            try:
                binary = resolve_binary(binary)  # cluster deploy mode: the copy shipped with --files
            except StageError as error:
                raise UsageError(str(error)) from None
        shipped = [entry for entry in sc.getConf().get("spark.files", "").split(",") if entry]
        if not sc.master.startswith("local") and not any(
                os.path.basename(entry) == os.path.basename(binary) for entry in shipped):
            sc.addFile(binary)  # started without --files: ship it to the executors
        module = os.path.abspath(__file__)
        if __name__ != "__main__":
            sc.addPyFile(module)  # executors unpickle the stage functions by module name
        files = discover_inputs(spark, options.inputs)
        partitions = options.partitions or sc.defaultParallelism
        if not files:
            final = []
        else:
            pipeline = build_pipeline(spark, files, options, binary, partitions)
            try:
                final = pipeline.collect()
            except Exception as error:  # Py4JJavaError wrapping the task's StageError
                sys.stderr.write(f"grove-report-spark: the Spark job failed: {_job_failure_message(error)}\n")
                return 1
        return render(binary, options, final, time.monotonic() - started)
    except UsageError as error:
        sys.stderr.write(f"grove-report-spark: {error}\n")
        return 2
    finally:
        if own_session:
            spark.stop()


if __name__ == "__main__":
    sys.exit(main())
