"""driver.gl.compose.LazySignature: the signature an alias, a forward or a hook
chain carries is the one of the callable it names, worked out when read."""

import inspect

from driver.gl import Context
from driver.gl.compose import LazySignature


def test_lazy_signature_is_the_signature_of_its_callable():
    def core(self, target: int, count: int = 1, *rest, flag=False) -> None:
        pass
    lazy = LazySignature(core)
    eager = inspect.signature(core)
    assert isinstance(lazy, inspect.Signature)
    assert lazy == eager and hash(lazy) == hash(eager)
    assert str(lazy) == "(self, target: int, count: int = 1, *rest, flag=False) -> None"
    assert list(lazy.parameters) == ["self", "target", "count", "rest", "flag"]
    assert lazy.return_annotation is None
    assert lazy.bind(0, 5).arguments == {"self": 0, "target": 5}


def test_entry_points_report_their_implementations_parameters():
    # what the C ABI reads (driver.abi.marshal.call): the arity of the core command
    lazy = 0
    for name in dir(Context):
        fn = getattr(Context, name)
        if not name.startswith("gl") or not callable(fn):
            continue
        inner = inspect.unwrap(fn)
        sig = inspect.signature(inner)
        if isinstance(sig, LazySignature):
            lazy += 1
            assert sig == inspect.signature(sig._of), name
            assert str(sig) == str(inspect.signature(sig._of)), name
    assert lazy > 300          # aliases, forwards and hook chains


def test_an_alias_has_its_core_commands_arity():
    sig = inspect.signature(inspect.unwrap(Context.glBindBufferARB))
    assert list(sig.parameters) == list(inspect.signature(inspect.unwrap(Context.glBindBuffer)).parameters)
