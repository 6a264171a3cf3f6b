/// The page's only style sheet, inline. Colours are the Okabe–Ito palette of `SVG.Colour`
/// (colour-blind safe); warnings and violations are also marked by text and borders, not by
/// colour alone; print keeps every section open and avoids splitting a campaign across pages.
enum PageStyle {
    static let css = """
        :root{--ink:#1A1A1A;--muted:#555;--line:#D0D0D0;--bad:#D55E00;--bad-bg:#FBE3D6;--warn:#8A5A00;--warn-bg:#FFF1CC;--ok:#00664A;--ok-bg:#DDF2EA;--accent:#0072B2}
        *{box-sizing:border-box}
        body{margin:0 auto;max-width:84rem;padding:1rem 1.5rem 3rem;font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;color:var(--ink);background:#FFF}
        h1{font-size:1.6rem;margin:.5rem 0 .25rem}
        h2{font-size:1.25rem;margin:2rem 0 .5rem;padding-bottom:.2rem;border-bottom:2px solid var(--accent)}
        h3{font-size:1rem;margin:1rem 0 .4rem}
        nav{margin:.6rem 0 0}
        nav a{margin-right:1rem;color:var(--accent)}
        caption{text-align:left;caption-side:top;padding:.1rem 0}
        p.lead{color:var(--muted);margin:.2rem 0 1rem}
        table{border-collapse:collapse;margin:.4rem 0 .8rem;font-variant-numeric:tabular-nums}
        th,td{border:1px solid var(--line);padding:.2rem .45rem;text-align:right;vertical-align:top;font-size:.9rem}
        td{white-space:nowrap}
        th{background:#F2F2F2;font-weight:600;font-size:.8rem}
        th.name,td.name{text-align:left;min-width:9rem;max-width:24rem;white-space:normal;overflow-wrap:anywhere}
        .wide{overflow-x:auto}
        td.bad{background:var(--bad-bg);color:#7A2E00;font-weight:700;outline:2px solid var(--bad);outline-offset:-2px}
        tr.flagged td.name{font-weight:700}
        .figures{display:flex;flex-wrap:wrap;gap:.5rem 1.5rem;margin:.4rem 0}
        .figure{min-width:8rem}
        .figure b{display:block;font-size:1.3rem}
        .figure span{color:var(--muted);font-size:.85rem}
        details{border:1px solid var(--line);border-radius:4px;margin:.4rem 0;padding:0 .8rem;break-inside:avoid}
        details[open]{padding-bottom:.6rem}
        summary{cursor:pointer;padding:.45rem 0;font-weight:600;overflow-wrap:anywhere}
        summary .tags{font-weight:400;color:var(--muted)}
        .badge{display:inline-block;border-radius:3px;padding:0 .35rem;margin-left:.4rem;font-size:.8rem;font-weight:700}
        .badge.warn{background:var(--warn-bg);color:var(--warn);border:1px solid var(--warn)}
        .badge.bad{background:var(--bad-bg);color:#7A2E00;border:1px solid var(--bad)}
        .badge.ok{background:var(--ok-bg);color:var(--ok);border:1px solid var(--ok)}
        .glance .badge{margin:0;font-size:.95rem;padding:.15rem .5rem}
        .banner{border-left:6px solid var(--warn);background:var(--warn-bg);color:#3D2800;padding:.4rem .7rem;margin:.4rem 0}
        .banner.bad{border-color:var(--bad);background:var(--bad-bg);color:#5A2200}
        .banner.ok{border-color:var(--ok);background:var(--ok-bg);color:#003D2C}
        .banner strong{margin-right:.4rem}
        .chart{display:block;max-width:100%;height:auto;margin:.3rem 0;font:12px system-ui,"DejaVu Sans",sans-serif}
        .chart text{fill:var(--ink)}
        .chart .axis{fill:var(--muted)}
        .note{color:var(--muted);font-size:.85rem}
        code{font-size:.9em}
        @media print{
          body{max-width:none;padding:0;font-size:11pt}
          nav{display:none}
          .wide{overflow:visible}
          th,td{font-size:8pt;padding:.1rem .25rem}
          details{border:0;padding:0}
          details::details-content{content-visibility:visible;display:contents}
          summary{list-style:none}
          .banner,td.bad,.badge,th{print-color-adjust:exact;-webkit-print-color-adjust:exact}
        }
        """
}
