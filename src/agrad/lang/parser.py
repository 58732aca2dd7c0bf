"""Loading the grammar, building (and caching) the LALR parser, parsing.

The grammar is ``grammars/agrad.lark``.  It is looked up inside the
installed package first (``agrad/grammars/agrad.lark``, which the wheel gets
through hatch's force-include) and in the source tree second (an editable
checkout).  Building the LALR tables costs a few tenths of a second, so the
built parser is cached in a per-user folder (``$AGRAD_CACHE_DIR``, else
``$XDG_CACHE_HOME/agrad``, else ``~/.cache/agrad``), keyed by agrad's
version, the grammar's hash and lark's and Python's versions; when that
folder cannot be used the parser is simply built in memory.

Scripts are parsed by agrad's own LALR driver (:mod:`.lalr_driver`) from the
fast cache, which holds lark's tables as plain data: lark itself is imported
only to build the caches, or when a text does not parse (its parser then
explains the error: :mod:`.syntax_errors`).  The post-lexer is :mod:`.indenter`.

Public functions: :func:`parse_script`, :func:`parse_expression`,
:func:`get_parser`, :func:`grammar_path`.
"""

from __future__ import annotations

import os
import sys
import threading
from pathlib import Path

from .errors import Source
from .indenter import PostLexError, make_indenter
from .lalr_driver import FastLALR, ParseFailure, from_lark

_HERE = Path(__file__).resolve().parent

_parser = None
_parser_lock = threading.Lock()
_fast_lock = threading.Lock()  # taken before _parser_lock, never inside it
_parse_lock = threading.RLock()

#: Where the last parser came from: "fast cache" (the driver's tables, no Lark object),
#: "cache" (lark's cache), "built", or "built (no cache: ...)".
parser_origin: str | None = None


def grammar_path() -> Path:
    """The grammar file: the installed package's copy, else the source tree's."""
    candidates = [
        _HERE.parent / "grammars" / "agrad.lark",          # installed wheel
        _HERE.parent.parent.parent / "grammars" / "agrad.lark",  # src/agrad/lang -> repo
    ]
    for p in candidates:
        if p.is_file():
            return p
    raise FileNotFoundError(
        "agrad's grammar (agrad.lark) was not found; looked in: "
        + ", ".join(str(p) for p in candidates))


# --------------------------------------------------------------- the parser

def _import_lark() -> None:
    """Import lark without the third-party ``regex`` module.

    lark imports ``regex`` whenever it is installed (about a third of lark's
    import time) but uses it only for grammars built with ``regex=True`` or
    Unicode categories, which agrad's is not; ``re`` does the rest.  The block
    is lifted as soon as lark is in, so anything else may still import it."""
    if "lark" in sys.modules:
        return
    blocked = "regex" not in sys.modules
    if blocked:
        sys.modules["regex"] = None  # makes ``import regex`` raise ImportError
    try:
        import lark  # noqa: F401
    finally:
        if blocked and sys.modules.get("regex", 0) is None:
            del sys.modules["regex"]


def _cache_dir() -> Path | None:
    env = os.environ.get("AGRAD_CACHE_DIR")
    if env is not None:
        return Path(env) if env else None      # AGRAD_CACHE_DIR= (empty) disables
    base = os.environ.get("XDG_CACHE_HOME")
    if base:
        return Path(base) / "agrad"
    try:
        return Path.home() / ".cache" / "agrad"
    except Exception:   # no home directory
        return None


def _usable_dir(d: Path) -> bool:
    """True if ``d`` exists or can be made, and only we can write to it (the
    cache is a pickle: loading one that someone else wrote would run code)."""
    try:
        d.mkdir(parents=True, exist_ok=True, mode=0o700)
        st = d.stat()
        if hasattr(os, "getuid") and st.st_uid != os.getuid():
            return False
        if st.st_mode & 0o022:
            return False
        return os.access(d, os.W_OK | os.X_OK)
    except OSError:
        return False


def _lark_options(postlex):
    return dict(parser="lalr", lexer="basic", postlex=postlex,
                start=["script", "expression"], propagate_positions=True,
                maybe_placeholders=True)


def _build(grammar_text: str):
    """Build the Lark object, through the cache when possible."""
    global parser_origin
    from lark import Lark
    import lark as _lark_mod

    indenter = make_indenter()()
    opts = _lark_options(indenter)
    d = _cache_dir()
    reason = "AGRAD_CACHE_DIR is empty" if d is None else None
    if d is not None and not _usable_dir(d):
        reason = f"{d} is not a private writable folder"
        d = None
    if d is None:
        parser_origin = f"built (no cache: {reason})"
        return Lark(grammar_text, **opts)

    import hashlib  # (lark is being imported anyway)

    agrad_version = getattr(sys.modules.get("agrad"), "__version__", "dev")
    digest = hashlib.sha256(grammar_text.encode("utf-8")).hexdigest()[:16]
    name = (f"grammar-{agrad_version}-{digest}-lark{_lark_mod.__version__}"
            f"-py{sys.version_info[0]}{sys.version_info[1]}.cache")
    path = d / name
    try:
        if path.is_file():
            st = path.stat()
            if (not hasattr(os, "getuid") or st.st_uid == os.getuid()) and not st.st_mode & 0o022:
                parser = Lark(grammar_text, cache=str(path), **opts)
                parser_origin = "cache"
                return parser
        # Build into a private temporary file, then move it into place, so a
        # concurrent run never reads a half-written cache.
        tmp = d / f".{name}.{os.getpid()}.{threading.get_ident()}.tmp"
        try:
            parser = Lark(grammar_text, cache=str(tmp), **opts)
            if tmp.is_file():
                os.replace(tmp, path)
        finally:
            try:
                tmp.unlink()
            except OSError:
                pass
        parser_origin = "built"
        return parser
    except Exception as e:   # an unreadable/corrupt cache or a full disk: no cache
        parser_origin = f"built (no cache: {type(e).__name__})"
        return Lark(grammar_text, **_lark_options(make_indenter()()))


def get_parser():
    """The process-wide Lark parser (built or loaded on first use)."""
    global _parser
    if _parser is None:
        _import_lark()
        with _parser_lock:
            if _parser is None:
                text = grammar_path().read_text(encoding="utf-8")
                _parser = _build(text)
    return _parser


def _normalise(text: str) -> str:
    if text.startswith("\ufeff"):
        text = text[1:]
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text


_fast = None


def _fast_parser():
    """The fast driver: from the fast cache when there is one (lark is not imported),
    else from the Lark parser (then written to the cache).  None if lark's internals
    changed."""
    global _fast
    if _fast is None:
        with _fast_lock:
            if _fast is None:
                _fast = _load_fast() or False
    return _fast or None


#: the layout of the fast cache (part of its file name): 5 = (its key, plain data:
#: integer-coded tables, the tree builder's rule shapes, the lexer's compiled patterns),
#: no lark objects
_FAST_FORMAT = 5


def _lark_stamp() -> str:
    """Which lark is installed, without importing it: its ``__init__.py``'s path, size and time."""
    import importlib.util
    spec = importlib.util.find_spec("lark")
    if spec is None or not spec.origin:
        return "none"
    st = os.stat(spec.origin)
    return f"{spec.origin}:{st.st_size}:{st.st_mtime_ns}"


def _short_digest(text: str) -> str:
    """A short digest for a cache file's name.  zlib's CRC-32: zlib is in with numpy, while
    hashlib loads OpenSSL (about 4 ms of every start-up).  A name only: the file holds its
    whole key, the grammar and lark's stamp, and is used only when they match (_load_fast)."""
    import zlib
    return f"{zlib.crc32(text.encode('utf-8', 'surrogatepass')):08x}"


def _fast_cache_path(grammar_text: str, stamp: str):
    d = _cache_dir()
    if d is None or not _usable_dir(d):
        return None
    agrad_version = getattr(sys.modules.get("agrad"), "__version__", "dev")
    return d / (f"fast-{agrad_version}-{_short_digest(grammar_text)}-v{_FAST_FORMAT}"
                f"-lark{_short_digest(stamp)}-py{sys.version_info[0]}{sys.version_info[1]}.pickle")


def _load_fast():
    global parser_origin
    import pickle

    text = grammar_path().read_text(encoding="utf-8")
    key = (text, _lark_stamp())
    path = _fast_cache_path(*key)
    if path is not None and path.is_file():
        try:
            st = path.stat()
            if (not hasattr(os, "getuid") or st.st_uid == os.getuid()) and not st.st_mode & 0o022:
                with open(path, "rb") as f:
                    stored_key, data = pickle.load(f)
                if stored_key == key:  # else another grammar or lark of the same digest: rebuild
                    fast = FastLALR(data)
                    parser_origin = "fast cache"
                    return fast
        except Exception:  # a stale or corrupt cache: rebuild it below
            pass
    try:
        data = from_lark(get_parser())
        fast = FastLALR(data) if data is not None else None
    except Exception:  # lark internals changed: use lark's own driver
        return None
    if path is not None and fast is not None:
        tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
        try:
            with open(tmp, "wb") as f:
                pickle.dump((key, data), f, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(tmp, path)
        except Exception:
            try:
                tmp.unlink()
            except OSError:
                pass
    return fast


def parse_tree(text: str, start: str, source: Source, *, line_offset: int = 0,
               col_offset: int = 0):
    """Parse ``text`` from ``start`` into a tree, or raise ScriptSyntaxError.

    ``line_offset``/``col_offset`` shift the positions of error messages
    (used for f-string fields, whose text sits inside a string literal).
    """
    text = _normalise(text)
    off = dict(line_offset=line_offset, col_offset=col_offset)
    if start == "script":
        _check_first_indent(text, source, off)
    with _parse_lock:
        fast = _fast_parser()
        if fast is not None:
            try:
                return fast.parse(text + "\n", start)
            except ParseFailure:
                pass  # lark's own parser finds the same error and explains it (below)
            except PostLexError as e:
                raise _post_lex_error(e, source, off) from None
            except RecursionError:
                raise _too_deep(source, off) from None
        return _parse_with_lark(text + "\n", start, source, off)


def _parse_with_lark(text: str, start: str, source: Source, off):
    """lark's own parser: where the fast driver is not there, and to explain a syntax error."""
    _import_lark()
    from lark.exceptions import LarkError

    parser = get_parser()
    try:
        return parser.parse(text, start=start)
    except PostLexError as e:
        err = _post_lex_error(e, source, off)
    except LarkError as e:
        from .syntax_errors import convert_lark_error, unclosed_bracket
        err = unclosed_bracket(parser.options.postlex, e, source, off) or \
            convert_lark_error(parser, e, source, text, **off)
    except RecursionError:
        err = _too_deep(source, off)
    raise err


def _post_lex_error(e: PostLexError, source: Source, off):
    from .syntax_errors import syntax_error
    return syntax_error(source, e.message, e.line, e.column, e.end_column, **off)


def _too_deep(source: Source, off):
    from .syntax_errors import syntax_error
    return syntax_error(source, "the text is nested too deeply to parse", None, None, **off)


def _check_first_indent(text: str, source: Source, off) -> None:
    """Python rejects an indented first statement; lark would ignore it."""
    for i, ln in enumerate(text.split("\n"), 1):
        s = ln.strip()
        if not s or s.startswith("#"):
            continue
        if ln[0] in " \t":
            from .syntax_errors import syntax_error
            raise syntax_error(source, "unexpected indent", i, len(ln) - len(ln.lstrip()) + 1, None,
                               **off)
        return


class _PausedGC:
    """Parsing builds many small acyclic objects; the cyclic collector's passes over
    them cost about as much as the parse itself (measured: 10,000 lines in 3.6 s
    with it, 1.9 s without), and reference counting frees them all anyway."""

    def __enter__(self):
        import gc
        self.was_enabled = gc.isenabled()
        gc.disable()

    def __exit__(self, *exc):
        import gc
        if self.was_enabled:
            gc.enable()
        return False


def parse_script(source: Source, *, max_nesting: int | None = None):
    """Parse a whole script into an :class:`agrad.lang.ast.Module`."""
    from .builder import build
    with _PausedGC():
        tree = parse_tree(source.text, "script", source)
        return build(tree, source, max_nesting=max_nesting)


def parse_expression(text: str, source_name: str = "<expr>", *,
                     max_nesting: int | None = None):
    """Parse one expression into an :class:`agrad.lang.ast.Expression`."""
    from .builder import build
    source = Source(source_name, text)
    tree = parse_tree(text, "expression", source)
    return build(tree, source, max_nesting=max_nesting)
