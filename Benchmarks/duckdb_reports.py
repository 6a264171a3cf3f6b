#!/usr/bin/env python3
"""DuckDB reference implementation of grove-report's attribution and exposure counts.

Usage: duckdb_reports.py --out DIR [--threads N] [--memory-limit 8GB] FILE...

Reads the gzipped NDJSON files named on the command line with DuckDB and writes, in DIR:

* ``duckdb_attribution.csv`` — per campaign: clicks, store_clicks, app_clicks, opens,
  open_retries, open_conflicts, attributed, bind_retries, bind_conflicts (docs/ATTRIBUTION.md);
* ``duckdb_exposure.csv`` — per (campaign, variant) with units > 0: units, converted_units,
  orders, revenue_minor, impressions (docs/EXPOSURE.md, ``--preview-scope unit``, no config);
* ``duckdb_accepted.json`` — lines read and accepted lines per event type, to explain any
  disagreement with grove-report's ``summary.json``.

It is the comparison point of ``Benchmarks/run.sh``: the same answer computed by a general
purpose engine, and a cross-check of grove-report's counts. Everything is SQL; Python only
assembles the statement and writes the (small) result files.

How lines are read
------------------
Each file is read as raw lines (``read_csv`` with one VARCHAR column, no quoting, no escape, a
delimiter byte that valid JSON never contains raw), so every line can be validated one by one
instead of letting a JSON reader drop or repair it. Each line is then parsed with DuckDB's JSON
functions (yyjson): ``json_valid``, ``json_keys`` (duplicate keys, allowlists), and one
``json_extract`` plus one ``json_extract_string`` of all 28 fields docs/EVENTS.md names;
field types are judged on the serialized value (a string starts with ``"``, a bool is
``true``/``false``, an int is digits only). The accepted events go to a temporary table, and the
two reports are two queries over it.

Validation rules (docs/EVENTS.md) replicated
--------------------------------------------
* invalid JSON: yyjson's strictness (bad UTF-8, lone surrogates, raw control characters, bad
  escapes, leading zeros, comments, trailing content after the object), not an object at top
  level; plus three things yyjson as DuckDB configures it accepts, checked on the raw line with
  every JSON string blanked out: ``NaN``/``Infinity`` tokens, trailing commas, and nesting deeper
  than 64 (the top-level object is depth 1);
* lines over 1 MiB; blank lines; a BOM at the start of a file (DuckDB's reader drops it);
  CRLF line ends; unknown ``type`` strings (ignored);
* duplicate top-level keys, compared after unescaping (``json_keys``);
* ``type`` missing / not a string; ``ts`` missing / not RFC 3339 (format, ``T``/``Z`` in either
  case, 1-9 fraction digits, a real proleptic-Gregorian date, hours 00-23, seconds 00-59,
  offsets up to +-23:59, year >= 1), instants compared at nanosecond precision, offsets applied;
* the ``link_open`` / ``click_bind`` allowlists (a disallowed key whose value is ``null`` is absent);
* every field of every type: id (a string of 1-256 bytes after unescaping), text (a string of at
  most 4096 bytes), bool (``true``/``false`` only), int (an integer literal, 0..2^53-1, ``-0``
  allowed, no fraction or exponent), the enums (consent, unit, route), required fields,
  ``null`` = absent;
* ``verifiedEmail`` normalization (ASCII whitespace trimmed, only ASCII A-Z lower-cased) and its
  exactly-one-``@`` rule; empty ``utm_*`` = absent; empty ``context`` != absent.

Validation rules (docs/EVENTS.md) NOT replicated (or only approximately)
------------------------------------------------------------------------
* a trailing comma separated from its bracket by a tab, CR or LF (``,\t}``) is not looked for
  (``,}`` and ``, }`` are); yyjson accepts it, grove-report rejects it;
* a raw CR *inside* a line (legal JSON whitespace between tokens) ends the line for DuckDB's
  line reader, so such a line is split in two (and both halves rejected);
* lines that are not valid UTF-8 are dropped by DuckDB's reader (``ignore_errors``) instead of
  being rejected: no difference for the reports, both leave them out;
* a disallowed key whose name contains ``"`` cannot be addressed by a JSON path to test it for
  ``null``; it is treated as present (rejecting the line);
* a line of more than 4 MiB is dropped by the reader (grove-report rejects anything over 1 MiB,
  so the result is the same);
* input errors (corrupt or truncated gzip) abort DuckDB instead of keeping the lines before the
  fault; the rejected lines are not accounted by reason (only accepted lines matter here);
* not computed at all: control flags, lift, SRM, the preview audit, ``--config``,
  ``--preview-scope event``.

None of these occurs in ``grove-report generate`` output, so on generated data the counts agree
exactly; the check in ``run.sh`` says so, or lists every difference.
"""

import argparse
import csv
import json
import os
import sys
import time

import duckdb

# Every field docs/EVENTS.md names, in one json_extract list (1-based indexes in SQL).
FIELDS = [
    "type", "ts", "installId", "customerId", "consent", "campaignId", "variantId", "isPreview",
    "preview", "control", "unit", "orderId", "amountMinor", "currency", "offerId", "clickId",
    "appKey", "slug", "route", "utm_campaign", "utm_source", "utm_medium", "utm_content",
    "utm_term", "openId", "context", "destination", "verifiedEmail", "url", "outcome",
    "pinExpiresAt", "reason",
]
IX = {name: i + 1 for i, name in enumerate(FIELDS)}
UTM = ["utm_campaign", "utm_source", "utm_medium", "utm_content", "utm_term"]

GRONA_COMMON = [("installId", "id", True), ("customerId", "id", False),
                ("consent", "enum:granted,unknown,denied", False)]
TYPES = {
    "decision": GRONA_COMMON + [("campaignId", "id", True), ("variantId", "id", True),
                                ("isPreview", "bool", True), ("preview", "bool", False),
                                ("control", "bool", False), ("unit", "enum:install,customer", False)],
    "impression": GRONA_COMMON + [("campaignId", "id", True), ("variantId", "id", True),
                                  ("preview", "bool", True), ("isPreview", "bool", False)],
    "order": GRONA_COMMON + [("orderId", "id", True), ("amountMinor", "int", True),
                             ("preview", "bool", True), ("isPreview", "bool", False),
                             ("currency", "text", False)],
    "grant": GRONA_COMMON + [("campaignId", "id", True), ("variantId", "id", True),
                             ("offerId", "id", True), ("preview", "bool", True),
                             ("isPreview", "bool", False)],
    "link_click": [("clickId", "id", True), ("appKey", "id", True), ("slug", "id", True),
                   ("route", "enum:store,app", True)] + [(u, "text", False) for u in UTM],
    "link_open": [("openId", "id", True), ("appKey", "id", True), ("slug", "id", True),
                  ("clickId", "id", False), ("context", "text", False),
                  ("destination", "text", False)] + [(u, "text", False) for u in UTM],
    "click_bind": [("clickId", "id", True), ("verifiedEmail", "text", True)],
    # campaignId, variantId and pinExpiresAt are required when the outcome is "paired" (type_ok).
    "preview_link": GRONA_COMMON + [("url", "text", True),
                                    ("outcome", "enum:paired,cleared,rejected,ignored", True),
                                    ("campaignId", "id", False), ("variantId", "id", False),
                                    ("pinExpiresAt", "ts", False), ("reason", "text", False)],
}
# RFC 3339 as docs/EVENTS.md accepts it (the date and the offset are range-checked apart).
TS_PATTERN = (r"[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt][0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]{1,9})?"
              r"([Zz]|[+-][0-9]{2}:[0-9]{2})")
ALLOWLISTS = {
    "link_open": ["type", "ts", "openId", "appKey", "slug", "clickId", "context", "destination"] + UTM,
    "click_bind": ["type", "ts", "clickId", "verifiedEmail"],
}


def sql_str(text):
    return "'" + text.replace("'", "''") + "'"


def v(name):
    """The field's value serialized as JSON (NULL when the key is absent)."""
    return f"v_{name}"


def s(name):
    """The field's unescaped string value (NULL unless it is a JSON string)."""
    return f"s_{name}"


def present(name):
    return f"({v(name)} IS NOT NULL AND {v(name)} <> 'null')"


def kind_check(name, kind):
    if kind == "id":
        return f"strlen({s(name)}) BETWEEN 1 AND 256"
    if kind == "text":
        return f"strlen({s(name)}) <= 4096"
    if kind == "bool":
        return f"{v(name)} IN ('true', 'false')"
    if kind == "int":
        return (f"regexp_full_match({v(name)}, '-?[0-9]+') AND "
                f"TRY_CAST({v(name)} AS HUGEINT) BETWEEN 0 AND 9007199254740991")
    if kind == "ts":
        text = s(name)
        zone = f"right({text}, 6)"
        return (f"regexp_full_match({text}, '{TS_PATTERN}') AND substr({text}, 1, 4) <> '0000' AND "
                f"try_strptime(substr({text}, 1, 10) || ' ' || substr({text}, 12, 8), '%Y-%m-%d %H:%M:%S') "
                f"IS NOT NULL AND (upper(right({text}, 1)) = 'Z' OR (TRY_CAST(substr({zone}, 2, 2) AS INTEGER) "
                f"<= 23 AND TRY_CAST(substr({zone}, 5, 2) AS INTEGER) <= 59))")
    if kind.startswith("enum:"):
        words = ", ".join(sql_str(w) for w in kind[5:].split(","))
        return f"{s(name)} IN ({words})"
    raise ValueError(kind)


def field_ok(name, kind, required):
    check = f"coalesce({kind_check(name, kind)}, false)"
    if required:
        return f"({present(name)} AND {check})"
    return f"(NOT {present(name)} OR {check})"


def type_ok(type_name):
    parts = [field_ok(*f) for f in TYPES[type_name]]
    if type_name in ALLOWLISTS:
        # A key outside the allowlist rejects the line unless its value is null (`extra_keys` is
        # computed in the `typed` stage). Keys that a JSON path cannot address (containing '"')
        # count as non-null. The CASE keeps the per-key look-up off the common path.
        parts.append(
            "CASE WHEN len(extra_keys) = 0 THEN true ELSE len(list_filter(extra_keys, lambda k: "
            "coalesce(try(json_type(line, '$.\"' || k || '\"')) <> 'NULL', true))) = 0 END")
    if type_name == "preview_link":
        parts.append(f"(coalesce({s('outcome')} <> 'paired', true) OR "
                     f"({present('campaignId')} AND {present('variantId')} AND {present('pinExpiresAt')}))")
    if type_name == "click_bind":
        parts.append("coalesce(regexp_full_match(email_norm, '[^@]+@[^@]+'), false)")
    return " AND ".join(parts)


def build_sql(files):
    file_list = "[" + ", ".join(sql_str(f) for f in files) + "]"
    paths = "[" + ", ".join(sql_str("$." + f) for f in FIELDS) + "]"
    accepted_case = "CASE t " + " ".join(
        f"WHEN {sql_str(name)} THEN ({type_ok(name)})" for name in TYPES) + " ELSE false END"
    ws = "' ' || chr(9) || chr(10) || chr(13)"
    upper = "'ABCDEFGHIJKLMNOPQRSTUVWXYZ'"
    lower = "'abcdefghijklmnopqrstuvwxyz'"

    def txt(name):  # text value, empty string as absent (utm_*)
        return f"nullif({s(name)}, '')"

    extra_keys = "CASE " + " ".join(
        f"WHEN {s('type')} = {sql_str(name)} THEN list_filter(keys, lambda k: NOT list_contains("
        f"[{', '.join(sql_str(k) for k in allow)}], k))" for name, allow in ALLOWLISTS.items()) + " END"
    # The line with every JSON string replaced by "" (for the textual checks below).
    blank_strings = "regexp_replace(line, '\"(\\\\.|[^\"\\\\])*\"', '\"\"', 'g')"
    depth_check = f"regexp_replace({blank_strings}, '[^\\[\\]{{}}]', '', 'g')"
    for _ in range(64):
        depth_check = f"regexp_replace({depth_check}, '\\[\\]|{{}}', '', 'g')"
    depth_check = f"({depth_check} <> '')"
    field_columns = ",\n           ".join(
        f"v[{IX[f]}] AS v_{f}, CASE WHEN starts_with(v[{IX[f]}], '\"') THEN sv[{IX[f]}] END AS s_{f}"
        for f in FIELDS)
    # Every stage below is a projection: a WHERE on a computed column would be pushed down by
    # DuckDB's optimizer with the column's expression inlined, re-parsing the JSON once per
    # reference. Only cheap predicates on the raw line filter; the verdict is the column `ok`.
    return f"""
CREATE TEMP TABLE lines AS
WITH raw AS (
    SELECT line
    FROM read_csv({file_list}, columns = {{'line': 'VARCHAR'}}, header = false, delim = chr(1),
                  quote = '', escape = '', auto_detect = false, ignore_errors = true,
                  strict_mode = false, compression = 'gzip', max_line_size = 4194304)
), objects AS (
    -- One JSON object per line; yyjson as DuckDB configures it also accepts NaN/Infinity and
    -- trailing commas, which RFC 8259 (and grove-report) do not.
    SELECT line
    FROM raw
    WHERE line IS NOT NULL
      AND strlen(line) <= 1048576
      AND json_valid(line)
      AND starts_with(ltrim(line, {ws}), '{{')
      -- NaN/Infinity and trailing commas outside strings: yyjson (as DuckDB configures it)
      -- accepts them.
      AND NOT CASE WHEN contains(line, 'NaN') OR contains(line, 'Infinity') OR contains(line, ',}}')
                        OR contains(line, ',]') OR contains(line, ', ')
                   THEN regexp_matches({blank_strings}, '[\\[:,]\\s*-?(NaN|Infinity)\\s*[\\]}},]|,\\s*[\\]}}]')
                   ELSE false END
      -- nesting deeper than 64: only lines with more than 64 '[' or '{{' can be; for those,
      -- strings are blanked, all but brackets dropped, then innermost pairs removed 64 times.
      AND NOT CASE WHEN strlen(line) - strlen(replace(replace(line, '[', ''), '{{', '')) > 64
                   THEN {depth_check}
                   ELSE false END
), parsed AS (
    SELECT line, json_keys(line) AS keys, json_extract(line, {paths}) AS v,
           json_extract_string(line, {paths}) AS sv
    FROM objects
), fields AS (
    SELECT line, keys,
           {field_columns}
    FROM parsed
), typed AS (
    SELECT *,
           {s('type')} AS t,
           {s('ts')} AS ts_text,
           try_strptime(substr({s('ts')}, 1, 10) || ' ' || substr({s('ts')}, 12, 8), '%Y-%m-%d %H:%M:%S') AS ts_base,
           CASE WHEN upper(right({s('ts')}, 1)) = 'Z' THEN NULL ELSE right({s('ts')}, 6) END AS ts_zone,
           translate(trim({s('verifiedEmail')}, {ws}), {upper}, {lower}) AS email_norm,
           {extra_keys} AS extra_keys
    FROM fields
), judged AS (
    SELECT *,
           coalesce(
               len(keys) = len(list_distinct(keys))                        -- duplicate_key:<key>
               AND t IN ({", ".join(sql_str(t) for t in TYPES)})           -- else ignored or bad type
               AND regexp_full_match(ts_text, '{TS_PATTERN}')
               AND ts_base IS NOT NULL
               AND substr(ts_text, 1, 4) <> '0000'
               AND (ts_zone IS NULL OR (TRY_CAST(substr(ts_zone, 2, 2) AS INTEGER) <= 23
                                        AND TRY_CAST(substr(ts_zone, 5, 2) AS INTEGER) <= 59))
               AND ({accepted_case}),
           false) AS ok
    FROM typed
)
SELECT
    ok,
    t,
    CASE WHEN ok THEN
    (date_diff('second', TIMESTAMP '1970-01-01 00:00:00', ts_base)
       - CASE WHEN ts_zone IS NULL THEN 0
              ELSE (CASE WHEN starts_with(ts_zone, '-') THEN -1 ELSE 1 END)
                   * (substr(ts_zone, 2, 2)::INTEGER * 3600 + substr(ts_zone, 5, 2)::INTEGER * 60) END
    )::HUGEINT * 1000000000
      + coalesce(rpad(nullif(regexp_extract(ts_text, '\\.([0-9]+)', 1), ''), 9, '0')::BIGINT, 0)
    END AS ts_ns,
    {s('installId')} AS install,
    {s('customerId')} AS customer,
    coalesce({s('consent')} = 'denied', false) AS denied,
    coalesce({v('isPreview')} = 'true', false) OR coalesce({v('preview')} = 'true', false) AS preview,
    {s('campaignId')} AS campaign,
    {s('outcome')} AS outcome,
    {s('variantId')} AS variant,
    coalesce({v('control')} = 'true', false) AS control,
    coalesce({s('unit')}, 'install') AS unit,
    {s('orderId')} AS order_id,
    CASE WHEN ok AND t = 'order' THEN TRY_CAST({v('amountMinor')} AS BIGINT) END AS amount,
    {s('clickId')} AS click_id,
    {s('openId')} AS open_id,
    {s('appKey')} AS app_key,
    {s('slug')} AS slug,
    {s('route')} AS route,
    {txt('utm_campaign')} AS utm_campaign,
    {txt('utm_source')} AS utm_source,
    {txt('utm_medium')} AS utm_medium,
    {txt('utm_content')} AS utm_content,
    {txt('utm_term')} AS utm_term,
    {s('context')} AS context,
    CASE WHEN t = 'click_bind' THEN email_norm END AS email
FROM judged;

-- the accepted events
CREATE TEMP VIEW ev AS SELECT * EXCLUDE (ok) FROM lines WHERE ok;
"""


ATTRIBUTION_SQL = """
WITH click_lines AS (
    SELECT click_id, route, coalesce(utm_campaign, '(none)') AS campaign,
           row_number() OVER (PARTITION BY click_id
               ORDER BY ts_ns, route NULLS FIRST, app_key NULLS FIRST, slug NULLS FIRST,
                        utm_campaign NULLS FIRST, utm_source NULLS FIRST, utm_medium NULLS FIRST,
                        utm_content NULLS FIRST, utm_term NULLS FIRST) AS rn
    FROM ev WHERE t = 'link_click'
), clicks AS (
    SELECT click_id, route, campaign FROM click_lines WHERE rn = 1
), open_lines AS (
    SELECT open_id, click_id, app_key, slug, context, utm_campaign, utm_source, utm_medium,
           utm_content, utm_term,
           row_number() OVER w AS rn,
           first_value(click_id) OVER w AS o_click_id,
           first_value(app_key) OVER w AS o_app_key,
           first_value(slug) OVER w AS o_slug,
           first_value(context) OVER w AS o_context,
           first_value(utm_campaign) OVER w AS o_utm_campaign,
           first_value(utm_source) OVER w AS o_utm_source,
           first_value(utm_medium) OVER w AS o_utm_medium,
           first_value(utm_content) OVER w AS o_utm_content,
           first_value(utm_term) OVER w AS o_utm_term
    FROM ev WHERE t = 'link_open'
    WINDOW w AS (PARTITION BY open_id
                 ORDER BY ts_ns, app_key NULLS FIRST, slug NULLS FIRST, context NULLS FIRST,
                          utm_campaign NULLS FIRST, utm_source NULLS FIRST, utm_medium NULLS FIRST,
                          utm_content NULLS FIRST, utm_term NULLS FIRST, click_id NULLS FIRST
                 ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)
), opens AS (
    SELECT open_id,
           any_value(o_click_id) AS click_id,
           count(*) FILTER (WHERE rn > 1 AND same) AS retries,
           count(*) FILTER (WHERE rn > 1 AND NOT same) AS conflicts
    FROM (SELECT *,
                 app_key IS NOT DISTINCT FROM o_app_key AND slug IS NOT DISTINCT FROM o_slug
                 AND context IS NOT DISTINCT FROM o_context
                 AND utm_campaign IS NOT DISTINCT FROM o_utm_campaign
                 AND utm_source IS NOT DISTINCT FROM o_utm_source
                 AND utm_medium IS NOT DISTINCT FROM o_utm_medium
                 AND utm_content IS NOT DISTINCT FROM o_utm_content
                 AND utm_term IS NOT DISTINCT FROM o_utm_term AS same
          FROM open_lines)
    GROUP BY open_id
), bind_lines AS (
    SELECT click_id, email,
           row_number() OVER w AS rn,
           first_value(email) OVER w AS o_email
    FROM ev WHERE t = 'click_bind'
    WINDOW w AS (PARTITION BY click_id ORDER BY ts_ns, email
                 ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)
), binds AS (
    SELECT click_id,
           count(*) FILTER (WHERE rn > 1 AND email = o_email) AS retries,
           count(*) FILTER (WHERE rn > 1 AND email <> o_email) AS conflicts
    FROM bind_lines GROUP BY click_id
), click_rows AS (
    SELECT campaign, count(*) AS clicks,
           count(*) FILTER (WHERE route = 'store') AS store_clicks,
           count(*) FILTER (WHERE route = 'app') AS app_clicks
    FROM clicks GROUP BY campaign
), open_rows AS (
    SELECT c.campaign, count(*) AS opens, sum(o.retries) AS open_retries,
           sum(o.conflicts) AS open_conflicts
    FROM opens o JOIN clicks c ON c.click_id = o.click_id GROUP BY c.campaign
), bind_rows AS (
    SELECT c.campaign, count(*) AS attributed, sum(b.retries) AS bind_retries,
           sum(b.conflicts) AS bind_conflicts
    FROM binds b JOIN clicks c ON c.click_id = b.click_id GROUP BY c.campaign
)
SELECT k.campaign, k.clicks, k.store_clicks, k.app_clicks,
       coalesce(o.opens, 0), coalesce(o.open_retries, 0), coalesce(o.open_conflicts, 0),
       coalesce(b.attributed, 0), coalesce(b.bind_retries, 0), coalesce(b.bind_conflicts, 0)
FROM click_rows k
LEFT JOIN open_rows o USING (campaign)
LEFT JOIN bind_rows b USING (campaign)
ORDER BY k.campaign
"""

EXPOSURE_SQL = """
WITH preview_installs AS (
    -- rule 2: installs with any accepted preview decision/impression/grant of C, consent
    -- regardless, or with a paired preview link for C
    SELECT DISTINCT campaign, install FROM ev
    WHERE (t IN ('decision', 'impression', 'grant') AND preview) OR (t = 'preview_link' AND outcome = 'paired')
), decisions AS (
    SELECT d.campaign, d.variant, d.ts_ns,
           CASE WHEN d.unit = 'customer' THEN 'customer:' || d.customer ELSE 'install:' || d.install END AS unit_key
    FROM ev d
    WHERE d.t = 'decision' AND NOT d.preview AND NOT d.denied
      AND NOT (d.unit = 'customer' AND d.customer IS NULL)               -- rule 1: missing_customer
      AND NOT EXISTS (SELECT 1 FROM preview_installs p                   -- rule 2: preview_contaminated
                      WHERE p.campaign = d.campaign AND p.install = d.install)
), units AS (
    SELECT campaign, unit_key, min(variant) AS variant, min(ts_ns) AS first_exposure
    FROM decisions GROUP BY campaign, unit_key
    HAVING count(DISTINCT variant) = 1                                    -- rule 3: multi_variant_units
), order_lines AS (
    SELECT order_id, amount, install, customer, preview, denied, ts_ns,
           row_number() OVER (PARTITION BY order_id
               ORDER BY ts_ns, amount, preview, denied, install, customer NULLS FIRST) AS rn
    FROM ev WHERE t = 'order'
), used_orders AS (
    SELECT * FROM order_lines WHERE rn = 1 AND NOT preview AND NOT denied
), order_keys AS (
    SELECT 'install:' || install AS unit_key, order_id, amount, ts_ns FROM used_orders
    UNION ALL
    SELECT 'customer:' || customer, order_id, amount, ts_ns FROM used_orders WHERE customer IS NOT NULL
), conversions AS (
    SELECT u.campaign, u.variant, u.unit_key, count(*) AS orders, sum(m.amount) AS revenue
    FROM units u JOIN order_keys m ON m.unit_key = u.unit_key AND m.ts_ns >= u.first_exposure
    GROUP BY u.campaign, u.variant, u.unit_key
), impressions AS (
    SELECT i.campaign, i.variant, count(*) AS impressions
    FROM ev i
    WHERE i.t = 'impression' AND NOT i.preview AND NOT i.denied
      AND NOT EXISTS (SELECT 1 FROM preview_installs p
                      WHERE p.campaign = i.campaign AND p.install = i.install)
    GROUP BY i.campaign, i.variant
), unit_rows AS (
    SELECT campaign, variant, count(*) AS units FROM units GROUP BY campaign, variant
), conversion_rows AS (
    SELECT campaign, variant, count(*) AS converted_units, sum(orders) AS orders,
           sum(revenue) AS revenue_minor
    FROM conversions GROUP BY campaign, variant
)
SELECT u.campaign, u.variant, u.units, coalesce(c.converted_units, 0), coalesce(c.orders, 0),
       coalesce(c.revenue_minor, 0), coalesce(i.impressions, 0)
FROM unit_rows u
LEFT JOIN conversion_rows c USING (campaign, variant)
LEFT JOIN impressions i USING (campaign, variant)
ORDER BY u.campaign, u.variant
"""

ATTRIBUTION_HEADER = ["campaign", "clicks", "store_clicks", "app_clicks", "opens", "open_retries",
                      "open_conflicts", "attributed", "bind_retries", "bind_conflicts"]
EXPOSURE_HEADER = ["campaign", "variant", "units", "converted_units", "orders", "revenue_minor",
                   "impressions"]


def write_csv(path, header, rows):
    tmp = path + ".tmp"
    with open(tmp, "w", newline="", encoding="utf-8") as f:
        out = csv.writer(f, lineterminator="\n")
        out.writerow(header)
        out.writerows(rows)
    os.replace(tmp, path)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", required=True, help="directory for the result files")
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--memory-limit", default=None, help="DuckDB memory_limit, e.g. 8GB")
    parser.add_argument("--show-sql", action="store_true", help="print the load statement and exit")
    parser.add_argument("files", nargs="+")
    args = parser.parse_args()

    load_sql = build_sql(args.files)
    if args.show_sql:
        print(load_sql)
        return 0
    os.makedirs(args.out, exist_ok=True)
    spill = os.path.join(args.out, "duckdb_tmp")
    con = duckdb.connect()
    con.execute(f"SET threads = {int(args.threads)}")
    con.execute("SET preserve_insertion_order = false")
    con.execute(f"SET temp_directory = {sql_str(spill)}")
    if args.memory_limit:
        con.execute(f"SET memory_limit = {sql_str(args.memory_limit)}")

    started = time.monotonic()
    con.execute(load_sql)
    loaded = time.monotonic()
    attribution = con.execute(ATTRIBUTION_SQL).fetchall()
    exposure = con.execute(EXPOSURE_SQL).fetchall()
    accepted = dict(con.execute("SELECT t, count(*) FROM ev GROUP BY t ORDER BY t").fetchall())
    finished = time.monotonic()

    write_csv(os.path.join(args.out, "duckdb_attribution.csv"), ATTRIBUTION_HEADER, attribution)
    write_csv(os.path.join(args.out, "duckdb_exposure.csv"), EXPOSURE_HEADER,
              [tuple(int(x) if i >= 2 else x for i, x in enumerate(row)) for row in exposure])
    with open(os.path.join(args.out, "duckdb_accepted.json"), "w", encoding="utf-8") as f:
        json.dump({"accepted": {t: accepted.get(t, 0) for t in TYPES},
                   "duckdb_version": duckdb.__version__,
                   "load_seconds": round(loaded - started, 3),
                   "query_seconds": round(finished - loaded, 3)}, f, indent=2)
        f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
