"""Lawbook: the Laws of Bridge for the director at the table.

    python app.py                  build the store if needed, then serve on :5000
    flask --app app build          (re)build the store, search index and pre-rendered pages
    gunicorn -w 2 'app:create_app()'   production

Configuration (environment): LAWS_DATA_DIR (default ./data) where the build
writes; LAWS_CORPUS_DIR (default ./corpus) what it reads; PORT.
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

import click
from flask import Flask

ROOT = Path(__file__).resolve().parent


def create_app(test_config: dict | None = None) -> Flask:
    app = Flask(__name__, static_folder="static", template_folder="templates")
    app.config.from_mapping(
        DATA_DIR=os.environ.get("LAWS_DATA_DIR", str(ROOT / "data")),
        CORPUS_DIR=os.environ.get("LAWS_CORPUS_DIR", str(ROOT / "corpus")),
        JSON_SORT_KEYS=False,
    )
    if test_config:
        app.config.update(test_config)
    from laws.web import db, errors, limits
    limits.init_app(app)
    db.init_app(app)
    errors.init_app(app)
    from laws.web import api, checkers, compare, guided, pages, rulings, rulings_play
    from search import web as search_web
    for blueprint in (api.bp, pages.bp, search_web.bp, compare.bp, checkers.bp, rulings.bp, rulings_play.bp,
                      guided.bp):
        app.register_blueprint(blueprint)
    from laws.web import site
    site.init_app(app)

    @app.cli.command("build")
    @click.option("--accept-shrink", "accept_shrink", multiple=True, metavar="EDITION|SOURCE",
                  help="Let this edition (or the edition of this source file) hold fewer than 95 % of the "
                       "provisions, definitions or guide topics of the build being served; repeat for several.")
    @click.option("--no-cache", "no_cache", is_flag=True,
                  help="Make everything again: read nothing from the build cache (data/cache) and keep nothing "
                       "in it, and build even when nothing changed.")
    def build_command(accept_shrink: tuple[str, ...], no_cache: bool):
        """(Re)build the store, search index and pre-rendered pages from the corpus, atomically."""
        from laws.build import failure
        try:
            build_all(app, Path(app.config["CORPUS_DIR"]), Path(app.config["DATA_DIR"]), echo=click.echo,
                      accept_shrink=accept_shrink, cache=not no_cache, reuse_current=not no_cache)
        except Exception as exc:  # noqa: BLE001 (every failure is one readable line)
            raise click.ClickException(f"build failed, the previous store is unchanged: {failure(exc)}") from None

    return app


def build_all(app: Flask, corpus: Path, data: Path, echo=print, accept_shrink=(), cache: bool = False,
              reuse_current: bool = False):
    """The store and search index (laws.build), then, before the new build is
    switched in, its pages pre-rendered by this app's code (laws.web.prerender):
    a page that fails to render fails the build, and the store served stays.
    `cache`, `reuse_current`: as laws.build.build takes them (the build
    command and `python app.py` use the cache; `--no-cache` does not)."""
    from laws.build import build

    return build(corpus, data, echo=echo, accept_shrink=accept_shrink, cache=cache, reuse_current=reuse_current,
                 before_switch=[("pages", lambda out: _pages(app, out))])


def _pages(app: Flask, out: Path) -> list[str]:
    """The build's pages pre-rendered (laws.web.prerender), and what that
    says (how many were made and kept), for the build to print with its
    other lines after the editions' summaries."""
    from laws.web import prerender

    said: list[str] = []
    prerender.write(app, out, echo=said.append)
    return said


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Build the Lawbook store if needed, then serve the site.")
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", 5000)))
    parser.add_argument("--host", default="127.0.0.1")
    args = parser.parse_args(argv)
    app = create_app()
    from laws.build import current_store, failure, is_stale
    corpus, data = Path(app.config["CORPUS_DIR"]), Path(app.config["DATA_DIR"])
    if is_stale(corpus, data):
        print("The store is missing, older than the corpus or made by another version: building it.", flush=True)
        try:
            build_all(app, corpus, data, cache=True)
        except Exception as exc:  # noqa: BLE001 (whatever went wrong, a previous store is served)
            print(f"build failed: {failure(exc)}", file=sys.stderr, flush=True)
            if not current_store(data).exists():
                return 1
            print("serving the previous store", file=sys.stderr, flush=True)
    app.run(host=args.host, port=args.port)
    return 0


if __name__ == "__main__":
    sys.exit(main())
