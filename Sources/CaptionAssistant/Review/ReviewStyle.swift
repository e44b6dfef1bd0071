import Foundation

/// The review pages' style sheets and their Content-Security-Policy.
///
/// Each page carries its sheet inline (the common rules and those of its kind
/// of page, about 3 KB), so a page opened from disk needs nothing else; the
/// policy allows that one sheet by its SHA-256 hash and nothing more: no script at all, no image, font, frame,
/// form or connection, from anywhere. System fonts only; light and dark follow
/// `prefers-color-scheme`.
enum ReviewStyle {
    /// The rules every page uses: colours (light and dark), type, the header, links and focus, the reason rows.
    static let common: StaticString = """
    :root{color-scheme:light dark;--bg:#f7f7f9;--card:#fff;--fg:#1b1c1f;--muted:#5d6069;--line:#dcdde3;--accent:#0a5bd3;\
    --ok:#17663a;--ok-bg:#e3f4e9;--bad:#a4161a;--bad-bg:#fde8e8;--off:#686b73;--off-bg:#eceef2;--warn:#7a4d00;--warn-bg:#fff2d6;\
    --kw:#fff1a8;--mono:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
    @media (prefers-color-scheme:dark){:root{--bg:#111317;--card:#1a1d23;--fg:#e8e9ed;--muted:#a3a7b1;--line:#2e323b;--accent:#7fb0ff;\
    --ok:#7ad39a;--ok-bg:#143222;--bad:#ff9a9a;--bad-bg:#3a1719;--off:#9a9ea8;--off-bg:#262a31;--warn:#ffce73;--warn-bg:#352812;--kw:#5a4a00}}
    *{box-sizing:border-box}
    html{-webkit-text-size-adjust:100%}
    body{margin:0;background:var(--bg);color:var(--fg);font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans",sans-serif}
    a{color:var(--accent)}
    a:focus-visible,summary:focus-visible{outline:3px solid var(--accent);outline-offset:2px;border-radius:4px}
    .skip{position:absolute;left:-999px;top:0;background:var(--card);padding:.5rem 1rem;z-index:2}
    .skip:focus{left:.5rem;top:.5rem}
    .vh{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
    header.top{background:var(--card);border-bottom:1px solid var(--line)}
    .wrap{max-width:72rem;margin:0 auto;padding:1rem}
    header.top .wrap{padding-top:.75rem;padding-bottom:.75rem}
    h1{font-size:1.5rem;line-height:1.25;margin:.25rem 0;overflow-wrap:anywhere}
    h2{font-size:1.15rem;margin:1.5rem 0 .5rem}
    .sub,.muted{color:var(--muted)}
    .sub{margin:0;overflow-wrap:anywhere}
    .emoji-name{font-size:.8rem;font-weight:normal}
    nav.crumbs{display:flex;flex-wrap:wrap;gap:.25rem 1rem;font-size:.95rem}
    .card{background:var(--card);border:1px solid var(--line);border-radius:12px;padding:.75rem 1rem;margin:.75rem 0}
    .card p{margin:.3rem 0}
    .reason-row{font-weight:600}
    .remedy{margin:.25rem 0 0}
    .settings{display:inline-block;margin-top:.5rem;padding:.3rem .8rem;border-radius:8px;border:1px solid var(--accent);color:var(--accent);font-weight:600}
    footer{color:var(--muted);font-size:.85rem;padding:2rem 0}
    """

    /// The index pages' rules: totals, filter tabs, the table of files (cards on a narrow screen), badges, page links.
    static let indexRules: StaticString = """
    .stats{display:grid;grid-template-columns:repeat(auto-fit,minmax(6.75rem,1fr));gap:.5rem;margin:1rem 0;padding:0}
    .stats div{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:.5rem .75rem}
    .stats dt{color:var(--muted);font-size:.85rem}
    .stats dd{margin:0;font-size:1.4rem;font-weight:600}
    .tabs{display:flex;flex-wrap:wrap;gap:.5rem;margin:1rem 0 .5rem;padding:0;list-style:none}
    .tabs a{display:inline-block;padding:.35rem .8rem;border:1px solid var(--line);border-radius:999px;background:var(--card);text-decoration:none;color:var(--fg)}
    .tabs a[aria-current=page]{background:var(--accent);border-color:var(--accent);color:var(--card);font-weight:600}
    table.files{width:100%;border-collapse:collapse;background:var(--card);border:1px solid var(--line);border-radius:12px;overflow:hidden}
    table.files th,table.files td{padding:.5rem .6rem;text-align:left;vertical-align:top;border-bottom:1px solid var(--line)}
    table.files th{font-size:.85rem;color:var(--muted);font-weight:600}
    table.files td.num{text-align:right;font-variant-numeric:tabular-nums}
    table.files td.name{min-width:12rem}
    table.files td.name a{font-weight:600;overflow-wrap:break-word;text-decoration:none}
    table.files td.name a:hover .fname{text-decoration:underline}
    .dir{display:block;font-weight:400;font-size:.8rem;color:var(--muted)}
    td.err{color:var(--bad);overflow-wrap:break-word;font-size:.9rem;max-width:28rem}
    .badges{display:flex;flex-wrap:nowrap;gap:.25rem}
    .badge{display:inline-block;padding:.05rem .5rem;border-radius:999px;font-size:.8rem;white-space:nowrap;border:1px solid transparent}
    .badge.applied{background:var(--ok-bg);color:var(--ok)}
    .badge.failed{background:var(--bad-bg);color:var(--bad)}
    .badge.disabled{background:var(--off-bg);color:var(--off);border-color:var(--line)}
    .badge.notRequested{background:none;color:var(--off);border:1px dashed var(--line)}
    .badge.fallback{background:var(--ok-bg);color:var(--ok);border:1px dashed var(--ok)}
    td.titles{font-size:.9rem;min-width:12rem;overflow-wrap:anywhere}
    td.titles ol{margin:0;padding-left:1.2rem}
    td.emoji{font-size:1.3rem;text-align:center}
    .badge.warn{background:var(--warn-bg);color:var(--warn)}
    nav.pages{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center;margin:1rem 0}
    @media (max-width:40rem){
    table.files,table.files tbody,table.files tr,table.files td{display:block;width:100%}
    table.files thead{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
    table.files{border:0;background:none}
    table.files tr{background:var(--card);border:1px solid var(--line);border-radius:12px;margin:.5rem 0;padding:.25rem 0}
    table.files td{border:0;padding:.2rem .75rem}
    table.files td.num{text-align:left}
    table.files td.name{padding-top:.5rem}
    table.files td.pos{display:none}
    table.files td.meta{display:inline-block;width:auto;padding-right:0}
    .badges{flex-wrap:wrap}
    td.err{max-width:none}
    table.files td[data-label]::before{content:attr(data-label) ": ";color:var(--muted);font-size:.85rem}
    }
    """

    /// A file page's rules: the assistant menu, keywords, titles, the cue list, warnings.
    static let fileRules: StaticString = """
    .columns{display:grid;grid-template-columns:minmax(0,1fr);gap:0 2rem}
    @media (min-width:60rem){.columns{grid-template-columns:minmax(0,34rem) minmax(0,1fr)}}
    .menu{list-style:none;margin:0;padding:0;background:var(--card);border:1px solid var(--line);border-radius:14px;overflow:hidden}
    .menu p{margin:.3rem 0 0}
    .menu>li{padding:.75rem 1rem;border-bottom:1px solid var(--line)}
    .menu>li:last-child{border-bottom:0}
    .menu .head{display:flex;justify-content:space-between;align-items:baseline;gap:1rem}
    .menu .label{font-weight:600}
    .menu li.disabled .label,.menu li.notRequested .label{color:var(--off)}
    .menu li.disabled,.menu li.notRequested{background:var(--off-bg)}
    .menu li.notRequested .state{color:var(--off)}
    .menu .source{font-size:.85rem;color:var(--muted)}
    .menu li.reason{background:var(--card)}
    .menu .state{font-size:.85rem}
    .menu li.applied .state{color:var(--ok)}
    .menu li.failed .state{color:var(--bad)}
    .menu li.disabled .state{color:var(--off)}
    .menu .error{color:var(--bad);margin:.25rem 0 0;overflow-wrap:anywhere}
    .chips{display:flex;flex-wrap:wrap;gap:.35rem;margin:.4rem 0 0;padding:0;list-style:none}
    .chips li{background:var(--kw);border-radius:6px;padding:.05rem .45rem;font-weight:600}
    ol.titles{margin:.4rem 0 0;padding-left:1.4rem}
    .big-emoji{font-size:2rem;line-height:1.2}
    .big-emoji span{font-size:.9rem;vertical-align:middle}
    ol.cues{list-style:none;margin:0;padding:0;background:var(--card);border:1px solid var(--line);border-radius:12px}
    ol.cues li{display:grid;grid-template-columns:minmax(11rem,max-content) 1fr;gap:.25rem 1rem;padding:.5rem .9rem;border-bottom:1px solid var(--line)}
    ol.cues li:last-child{border-bottom:0}
    ol.cues time{font:0.85rem/1.9 var(--mono);color:var(--muted);white-space:nowrap}
    ol.cues .text{overflow-wrap:anywhere}
    ol.cues strong{background:var(--kw);border-radius:3px;padding:0 .1em}
    @media (max-width:40rem){ol.cues li{grid-template-columns:1fr}}
    code.markup{font:0.85em var(--mono);color:var(--muted);background:var(--off-bg);border-radius:3px;padding:0 .2em}
    ol.cues time.word{font:0.65em var(--mono);color:var(--muted);vertical-align:super;padding:0 .15em;white-space:nowrap}
    mark.emoji{background:none;outline:2px dashed var(--accent);outline-offset:1px;border-radius:4px}
    ul.warnings{margin:0;padding-left:1.2rem}
    ul.warnings li{margin:.15rem 0;overflow-wrap:break-word}
    ul.warnings .line{font-family:var(--mono);font-size:.9em}
    .callout{border-left:4px solid var(--bad);background:var(--bad-bg);padding:.5rem .9rem;border-radius:6px;overflow-wrap:anywhere}
    .note{border-left:4px solid var(--warn);background:var(--warn-bg);padding:.5rem .9rem;border-radius:6px}
    """

    /// One of the two style sheets a page carries inline, with the policy that allows exactly it.
    struct Sheet: Sendable {
        /// The CSS, as written into the page's `<style>` element.
        let bytes: [UInt8]
        /// The Content-Security-Policy: nothing but this sheet, by its SHA-256 hash.
        let policy: String

        init(_ parts: StaticString...) {
            var bytes: [UInt8] = []
            for part in parts {
                bytes += UnsafeBufferPointer(start: part.utf8Start, count: part.utf8CodeUnitCount)
                bytes.append(0x0A)
            }
            self.bytes = bytes
            var hash = SHA256()
            hash.update(bytes)
            let digest = Data(hash.finalize()).base64EncodedString()
            policy = "default-src 'none'; style-src 'sha256-\(digest)'; img-src 'none'; font-src 'none'; connect-src 'none'; "
                + "script-src 'none'; object-src 'none'; frame-src 'none'; base-uri 'none'; form-action 'none'"
        }
    }

    /// The index pages' sheet.
    static let index = Sheet(common, indexRules)
    /// A file page's sheet.
    static let file = Sheet(common, fileRules)
}
