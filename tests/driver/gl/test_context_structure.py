"""The structure of driver.gl.Context: a short MRO, one definition per method
(families are installed, not inherited), the legacy layer's changes to the
core as explicit @extends hooks, and the entry-point surface kept."""

from __future__ import annotations

import inspect
from pathlib import Path

import pytest

import driver
from driver.gl import API_NAMES, Context, enums as E
from driver.gl.compose import compose, extends
from driver.gl.families import FAMILIES
from driver.gl.legacy.dlist import dispatch_table

from .helpers import expect

MAX_CLASSES = 12        # the bound of the architecture (docs/architecture.md, the context)


def test_the_context_class_is_composed_of_at_most_twelve_classes():
    assert len(Context.__mro__) <= MAX_CLASSES, [c.__name__ for c in Context.__mro__]
    assert not set(FAMILIES) & set(Context.__mro__)          # families are installed, not bases


def test_the_dispatch_tables_are_classes_a_context_switches_between():
    """Mesa's exec/save dispatch swap: display-list compilation and Begin/End
    switch the context's class; every other moment runs entry points directly."""
    checked, es1 = dispatch_table(Context, "checked"), dispatch_table(Context, "es1")
    for table in (checked, es1):
        assert len(table.__mro__) <= MAX_CLASSES and issubclass(table, Context)
    assert dispatch_table(Context, "checked") is checked                  # built once
    with driver.Context(api="compat", width=4, height=4) as c:
        gl = c.gl
        compat = dispatch_table(Context, "api", gl.api)
        assert type(gl) is compat and issubclass(checked, compat)
        gl.glNewList(1, E.GL_COMPILE)
        assert type(gl) is checked
        gl.glClearColor(1.0, 0.0, 0.0, 1.0)                 # recorded, not run
        gl.glEndList()
        assert type(gl) is compat
        assert gl.glGetFloatv(E.GL_COLOR_CLEAR_VALUE) == [0.0, 0.0, 0.0, 0.0]
        gl.glCallList(1)
        assert gl.glGetFloatv(E.GL_COLOR_CLEAR_VALUE) == [1.0, 0.0, 0.0, 1.0]
        gl.glBegin(E.GL_TRIANGLES)
        assert type(gl) is checked
        gl.glEnable(E.GL_DEPTH_TEST)                        # section 2.6.3: not between Begin and End
        gl.glEnd()
        expect(gl, E.GL_INVALID_OPERATION)                  # (read after End: glGetError is refused too)
        assert type(gl) is compat and not gl.glIsEnabled(E.GL_DEPTH_TEST)
        gl.glDrawTexiOES(0, 0, 0, 1, 1)                      # an ES 1.1 extension's only
        expect(gl, E.GL_INVALID_OPERATION)
    with driver.Context(api="gles1", width=4, height=4) as c:
        gl = c.gl
        assert type(gl) is es1
        gl.glColor4x(0x10000, 0, 0, 0x10000)
        expect(gl, E.GL_NO_ERROR)
        gl.glBegin(E.GL_TRIANGLES)                           # not an ES 1.1 command
        expect(gl, E.GL_INVALID_OPERATION)
        assert type(gl) is es1


@pytest.mark.parametrize("api", sorted(API_NAMES))
def test_every_contexts_class_is_composed_of_at_most_twelve_classes(api):
    """Each API's table (and a compatibility context's list-compiling one) is a
    subclass of the Context class, so each context is made of a handful of classes."""
    with driver.Context(api=api, width=4, height=4) as c:
        gl = c.gl
        assert isinstance(gl, Context) and len(type(gl).__mro__) <= MAX_CLASSES, type(gl).__mro__
        if gl.api.compat:
            gl.glNewList(1, E.GL_COMPILE)
            assert len(type(gl).__mro__) <= MAX_CLASSES, type(gl).__mro__
            gl.glEndList()


def test_every_entry_point_of_the_former_class_still_exists():
    listed = Path(__file__).with_name("data").joinpath("context_entry_points.txt").read_text().split("\n")
    names = [n for n in listed if n and not n.startswith("#")]
    assert len(names) == 1577
    missing = [n for n in names if not callable(getattr(Context, n, None))]
    assert missing == []


def test_each_installed_name_has_one_family():
    for family in FAMILIES:
        for name, value in vars(family).items():
            if name.startswith("__") or name == "_init_family" or getattr(value, "__gl_extends__", False):
                continue
            assert Context._family_owner[name] is family, name


class _Core:
    def _caps(self):
        return {1}

    def glThing(self, a: int) -> int:
        return a + 1


def test_two_definitions_of_a_name_are_refused():
    class A:
        def glThing(self, a):
            return a

    class Base(_Core):
        pass
    with pytest.raises(TypeError, match="glThing is defined by A and the context base"):
        compose(type("C", (Base,), {}), (A,))

    class B:
        def _other(self):
            return 0

    class B2:
        def _other(self):
            return 1
    with pytest.raises(TypeError, match="_other is defined by B2 and B"):
        compose(type("C", (object,), {}), (B, B2))


def test_super_and_family_bases_are_refused():
    class Overrider:
        def glThing(self, a):
            return super().glThing(a)
    with pytest.raises(TypeError, match="Overrider.glThing uses super"):
        compose(type("C", (_Core,), {}), (Overrider,))

    class Derived(_Core):
        pass
    with pytest.raises(TypeError, match="family Derived has bases"):
        compose(type("C", (object,), {}), (Derived,))


def test_a_hook_receives_the_core_and_chains_in_family_order():
    class Outer:
        @extends
        def _caps(self, core):
            return core() | {3}

        @extends
        def glThing(self, core, a: int) -> int:
            return core(a) * 10

    class Inner:
        @extends
        def _caps(self, core):
            return core() | {2}

    cls = compose(type("C", (_Core,), {}), (Outer, Inner))
    obj = cls()
    assert obj._caps() == {1, 2, 3}
    assert obj.glThing(4) == 50
    assert list(inspect.signature(cls.glThing).parameters) == ["self", "a"]      # the core's

    class Orphan:
        @extends
        def _nothing(self, core):
            return core()
    with pytest.raises(TypeError, match="Orphan._nothing extends nothing"):
        compose(type("C", (object,), {}), (Orphan,))


def test_family_state_is_set_up_in_family_order():
    seen = []

    class First:
        def _init_family(self):
            seen.append("first")

    class Second:
        def _init_family(self):
            seen.append("second")
    cls = compose(type("C", (object,), {}), (First, Second))
    for init in cls._family_inits:
        init(None)
    assert seen == ["first", "second"]


def test_the_legacy_hooks_on_the_enable_caps_run_outer_to_inner():
    """ARB programs' targets and fixed function's texture-generation caps are
    enables of a compatibility context only (their hooks defer to the core)."""
    with driver.Context(api="compat", width=4, height=4) as ctx:
        ctx.glEnable(E.GL_VERTEX_PROGRAM_ARB)
        ctx.glEnable(E.GL_TEXTURE_GEN_S)
        expect(ctx, E.GL_NO_ERROR)
        assert ctx.glIsEnabled(E.GL_VERTEX_PROGRAM_ARB) and ctx.glIsEnabled(E.GL_TEXTURE_GEN_S)
    with driver.Context(api="gl33", width=4, height=4) as ctx:
        for cap in (E.GL_VERTEX_PROGRAM_ARB, E.GL_TEXTURE_GEN_S):
            ctx.glEnable(cap)
            expect(ctx, E.GL_INVALID_ENUM)
        ctx.glEnable(E.GL_DEPTH_TEST)
        expect(ctx, E.GL_NO_ERROR)


@pytest.mark.parametrize("api", ["compat", "gl33"])
def test_point_parameters_through_the_hook(api):
    """The core's GL_POINT_FADE_THRESHOLD_SIZE in both profiles; the distance
    attenuation only in the compatibility profile (the legacy layer's hook)."""
    with driver.Context(api=api, width=4, height=4) as ctx:
        ctx.glPointParameterf(E.GL_POINT_FADE_THRESHOLD_SIZE, 2.5)
        ctx.glPointParameteri(E.GL_POINT_SPRITE_COORD_ORIGIN, E.GL_LOWER_LEFT)
        expect(ctx, E.GL_NO_ERROR)
        assert ctx.glGetFloatv(E.GL_POINT_FADE_THRESHOLD_SIZE) == [2.5]
        assert ctx.glGetIntegerv(E.GL_POINT_SPRITE_COORD_ORIGIN) == [E.GL_LOWER_LEFT]
        ctx.glPointParameterf(E.GL_POINT_FADE_THRESHOLD_SIZE, -1.0)
        expect(ctx, E.GL_INVALID_VALUE)
        assert ctx.glGetFloatv(E.GL_POINT_FADE_THRESHOLD_SIZE) == [2.5]
        ctx.glPointParameterfv(E.GL_POINT_DISTANCE_ATTENUATION, [1.0, 0.5, 0.25])
        if api == "compat":
            expect(ctx, E.GL_NO_ERROR)
            assert ctx.glGetFloatv(E.GL_POINT_DISTANCE_ATTENUATION) == [1.0, 0.5, 0.25]
        else:
            expect(ctx, E.GL_INVALID_ENUM)
