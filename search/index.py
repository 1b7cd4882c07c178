"""Building the search index from the store (build time only).

`build(db, out_dir)` is called by `laws.build` on the finished store of a new
build; the index lands in `<build dir>/index`, and the whole build directory
is switched in atomically, so a server never sees a half-written index.  The
web app opens it read-only (`search.query`).

One document per searchable thing:

* every provision of every code edition: its heading, its own text (with its
  tables and footnotes), and the title of its law (so "revoke" finds every
  provision of Law 62 "Correction of a Revoke");
* every definition (title = the term);
* every topic of the guide (title = the topic's title).

A provision or definition that an edition's official index cites also gets
the words of the citing entries (`index`: "Bid Insufficient bid, comparable
call" on 23A), a field of its own that ranks high: the compilers of the index
put those words on that provision, which is the best evidence there is that
it answers them.

Besides the Whoosh index the directory holds `offline.json`, the same
documents for the browser's search with no connection (search/offline.py),
and `meta.json`: the editions (for
choosing the newest edition of a cited provision and for the filter form) and
the corpus's vocabulary of unstemmed words with their counts (for did-you-mean)
and each word's term (so that highlighting need not analyse them again).
"""
from __future__ import annotations

import json
import os
import shutil
import time
from collections import Counter
from pathlib import Path
from urllib.parse import quote

from whoosh import index as whoosh_index
from whoosh.fields import ID, NUMERIC, STORED, TEXT, Schema

from search import offline
from search.analysis import analyzer, term, words

INDEX_NAME = "laws"
META = "meta.json"
KINDS = ("law", "definition", "guide")  # the `kind` filter's values


def schema() -> Schema:
    text = analyzer()
    return Schema(
        key=ID(stored=True, unique=True),  # kind|edition|id
        kind=ID(stored=True),
        edition=ID(stored=True),
        group=ID(stored=True),  # results of one group are shown together (see query.py)
        law=NUMERIC(stored=True),
        provision=STORED(),  # provision id, 'def:<term>' or 'topic:<slug>'
        url=STORED(),
        laws=STORED(),  # a guide topic's laws
        ord=STORED(),
        title=TEXT(analyzer=text, stored=True),
        heading=TEXT(analyzer=text, stored=True),
        text=TEXT(analyzer=text, stored=True),
        index=TEXT(analyzer=text),  # words of the official index's entries that cite it
    )


def law_url(edition: str, law: int, pid: str) -> str:
    base = f"/{quote(edition)}/law/{law}"
    return base if pid == str(law) else f"{base}#{quote(pid, safe='().')}"


def definition_url(edition: str, def_id: str) -> str:
    return f"/{quote(edition)}/definitions#{quote(def_id, safe=':().')}"


def topic_url(topic_id: str) -> str:
    return f"/guide/{quote(topic_id, safe=':')}"


def _index_words(db) -> dict[tuple[str, str], list[str]]:
    """(edition, provision or definition id) -> the words of every index entry
    citing it: the heading, and for a sub-entry the heading and the sub-entry.
    An entry citing a whole law ('Shuffle 6', 'Claim 68, 69, 70') says what the
    law is about, as its title does: its words go to every provision of the law."""
    if "index_entries" not in db.table_names():
        return {}
    terms = {(r["edition"], r["id"]): r["term"] for r in db["index_entries"].rows}
    of_law: dict[tuple[str, str], list[str]] = {}
    for p in db.query("select edition, id, law from provisions"):
        of_law.setdefault((p["edition"], str(p["law"])), []).append(p["id"])
    out: dict[tuple[str, str], list[str]] = {}
    for r in db["index_entries"].rows_where(order_by="edition, ord"):
        words = r["term"] if r["parent"] is None else f"{terms[(r['edition'], r['parent'])]} {r['term']}"
        for c in json.loads(r["cites"] or "[]"):
            to = c.get("to") or ""
            if to.isdigit():
                targets = of_law.get((r["edition"], to), [])
            elif to[:1].isdigit() or to.startswith("def:"):
                targets = [to]
            else:
                continue  # the definitions page, the introduction: no document of their own
            for t in targets:
                out.setdefault((r["edition"], t), []).append(words)
    return out


def _documents(db):
    index_words = _index_words(db)
    editions = {r["id"]: r for r in db["editions"].rows}
    law_titles = {(r["edition"], r["number"]): r["title"] or "" for r in db["laws"].rows}
    extra: dict[tuple[str, str], list[str]] = {}
    for t in db["tables"].rows_where(order_by="edition, provision, ord"):
        cells = [t["caption"] or ""] + json.loads(t["header"] or "[]")
        for row in json.loads(t["rows"] or "[]"):
            cells += [str(c) for c in row]
        extra.setdefault((t["edition"], t["provision"]), []).append(" ".join(c for c in cells if c))
    for f in db["footnotes"].rows_where(order_by="edition, provision, id"):
        extra.setdefault((f["edition"], f["provision"]), []).append(f["text"] or "")

    for p in db["provisions"].rows_where(order_by="edition, ord"):
        ed = editions[p["edition"]]
        text = "\n\n".join([p["text"] or ""] + extra.get((p["edition"], p["id"]), [])).strip()
        yield dict(
            key=f"law|{p['edition']}|{p['id']}", kind="law", edition=p["edition"],
            group=f"{ed['family'] or ed['id']}:{p['law']}", law=p["law"], provision=p["id"],
            url=law_url(p["edition"], p["law"], p["id"]), ord=p["ord"],
            title=law_titles.get((p["edition"], p["law"]), ""), heading=p["heading"] or "", text=text,
            index="\n".join(index_words.get((p["edition"], p["id"]), [])),
        )
    for d in db["definitions"].rows_where(order_by="edition, ord"):
        yield dict(
            key=f"definition|{d['edition']}|{d['id']}", kind="definition", edition=d["edition"],
            group=f"definition:{d['term'].lower()}", provision=d["id"], url=definition_url(d["edition"], d["id"]),
            ord=d["ord"], title=d["term"], heading="", text=d["text"] or "",
            index="\n".join(index_words.get((d["edition"], d["id"]), [])),
        )
    topic_laws: dict[str, list[int]] = {}
    for r in db["topic_laws"].rows_where(order_by="topic, law"):
        topic_laws.setdefault(r["topic"], []).append(r["law"])
    topics = list(db["topics"].rows_where(order_by="edition, ord"))
    parents = {t["id"]: t["parent"] for t in topics}
    for t in topics:
        if not (t["text"] or "").strip():
            continue  # a group heading: its sub-topics hold the text (and are searched)
        # a sub-topic is about the laws its group is tagged with
        laws, up = topic_laws.get(t["id"]), parents.get(t["id"])
        while not laws and up:
            laws, up = topic_laws.get(up), parents.get(up)
        yield dict(
            key=f"guide|{t['edition']}|{t['id']}", kind="guide", edition=t["edition"], group=t["id"],
            provision=t["id"], url=topic_url(t["id"]), laws=laws or [], ord=t["ord"],
            title=t["title"] or "", heading="", text=t["text"] or "", index="",
        )


def _editions(db) -> list[dict]:
    def present(ed: str) -> list[int]:
        return [r[0] for r in db.execute("select number from laws where edition = ? order by number", [ed])]

    return [{"id": r["id"], "title": r["title"], "year": r["year"], "kind": r["kind"],
             "family": r["family"] or r["id"], "in_force": bool(r.get("in_force")),
             "laws": present(r["id"]), "declared": json.loads(r.get("laws") or "[]")}
            for r in db["editions"].rows_where(order_by="ord")]


def build(db, out_dir: Path) -> Path:
    """Index the store `db` (a sqlite_utils.Database) into `out_dir`.

    The index is written into a sibling directory and renamed into place
    when complete, so even outside a build `out_dir` is never half-written."""
    t0 = time.perf_counter()
    out_dir = Path(out_dir)
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    tmp = out_dir.with_name(f".{out_dir.name}-tmp-{os.getpid()}-{time.monotonic_ns()}")
    tmp.mkdir()
    try:
        ix = whoosh_index.create_in(str(tmp), schema(), indexname=INDEX_NAME)
        writer = ix.writer(procs=1, limitmb=128)
        vocabulary: Counter[str] = Counter()
        count = 0
        docs = []
        for doc in _documents(db):
            writer.add_document(**doc)
            docs.append(doc)
            vocabulary.update(w for w in words(" ".join((doc["title"], doc["heading"], doc["text"], doc["index"])))
                              if w.isalpha() and len(w) > 1)
            count += 1
        writer.commit(optimize=True)
        meta = {"editions": _editions(db), "documents": count, "vocabulary": dict(vocabulary.most_common()),
                "terms": {w: term(w) for w in vocabulary},
                "seconds": round(time.perf_counter() - t0, 3)}
        (tmp / META).write_text(json.dumps(meta, ensure_ascii=False), encoding="utf-8")
        offline.write(tmp / offline.PAYLOAD, docs, meta["editions"])
        if out_dir.exists():  # outside a build only: move the old index aside first
            old = out_dir.with_name(f".{out_dir.name}-old-{os.getpid()}-{time.monotonic_ns()}")
            out_dir.rename(old)
            tmp.rename(out_dir)
            shutil.rmtree(old, ignore_errors=True)
        else:
            tmp.rename(out_dir)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return out_dir
