"""Safe ``str.format``: ``{0.name}`` and ``{0[key]}`` fields obey the attribute allow-lists
(the ``getattr`` given is the interpreter's) and widths obey --max-elements.

Split from :mod:`safety`; the class is made on first use, so ``string`` stays out of start-up.
"""

from __future__ import annotations

from .limits import check_format_spec, check_size

def _formatter_class():
    import string

    class SafeFormatter(string.Formatter):
        """``str.format`` whose ``{0.name}`` and ``{0[key]}`` fields obey the
        attribute allow-lists and whose widths obey --max-elements."""

        def __init__(self, getattr_fn):
            super().__init__()
            self._getattr = getattr_fn

        def get_field(self, field_name, args, kwargs):
            import _string
            first, rest = _string.formatter_field_name_split(field_name)
            obj = self.get_value(first, args, kwargs)
            for is_attr, i in rest:
                if is_attr:
                    obj = self._getattr(obj, i)
                else:
                    obj = obj[i]
            return obj, first

        def format_field(self, value, format_spec):
            check_format_spec(format_spec)
            return format(value, format_spec)

        def vformat(self, format_string, args, kwargs):
            result = super().vformat(format_string, args, kwargs)
            check_size(len(result), "string")
            return result

    return SafeFormatter


_formatter = []


def SafeFormatter(getattr_fn):  # noqa: N802 - the class, made on first use: ``string`` stays out of start-up
    if not _formatter:
        _formatter.append(_formatter_class())
    return _formatter[0](getattr_fn)

