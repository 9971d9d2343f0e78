"""Before/after tests of constant folding, copy propagation, DCE, CSE, dead cf."""

from compiler.ir.passes import opt_constant_folding, opt_copy_prop, opt_cse, opt_dce, opt_dead_cf

from .irtest import CASE, NEGCASE

OUT = "intrinsic store_output ({v}, %z) (base=0, slot=VAR0, write_mask=x)"


def store(v):
    return OUT.format(v=v)


def test_fold_fadd():
    CASE(opt_constant_folding, f"""
        block b0:
          32x1 %z = load_const (0)
          32x1 %a = load_const (1.5)
          32x1 %b = load_const (2.0)
          32x1 %c = fadd %a, %b
          {store('%c')}
    """, f"""
        block b0:
          32x1 %z = load_const (0)
          32x1 %a = load_const (1.5)
          32x1 %b = load_const (2.0)
          32x1 %c = load_const (3.5)
          {store('%c')}
    """)


def test_fold_through_swizzle_and_types():
    CASE(opt_constant_folding, f"""
        block b0:
          32x1 %z = load_const (0)
          32x2 %a = load_const (7, -2)
          32x2 %c = idiv %a.xx, %a.yx
          1x2 %d = ilt %c, %a
          32x1 %f = load_const (-2.75)
          32x1 %e = f2i32 %f
          {store('%c')}
    """, f"""
        block b0:
          32x1 %z = load_const (0)
          32x2 %a = load_const (7, -2)
          32x2 %c = load_const (-3, 1)
          1x2 %d = load_const (true, false)
          32x1 %f = load_const (-2.75)
          32x1 %e = load_const (-2)
          {store('%c')}
    """)


def test_fold_leaves_non_constants():
    NEGCASE(opt_constant_folding, f"""
        block b0:
          32x1 %z = load_const (0)
          32x4 %i = intrinsic load_input (%z) (base=0, slot=VAR0)
          32x1 %b = load_const (2.0)
          32x4 %c = fmul %i, %b.xxxx
          32x4 %d = fddx %b.xxxx
          {store('%c')}
    """)


def test_copy_prop_composes_swizzles():
    CASE(opt_copy_prop, f"""
        block b0:
          32x1 %z = load_const (0)
          32x4 %i = intrinsic load_input (%z) (base=0, slot=VAR0)
          32x3 %m = mov %i.wzy
          32x2 %n = mov %m.zx
          32x2 %r = fadd %n, %n.yy
          {store('%r')}
    """, f"""
        block b0:
          32x1 %z = load_const (0)
          32x4 %i = intrinsic load_input (%z) (base=0, slot=VAR0)
          32x3 %m = mov %i.wzy
          32x2 %n = mov %i.yw
          32x2 %r = fadd %i.yw, %i.ww
          {store('%r')}
    """)


def test_copy_prop_whole_copies_reach_intrinsics_and_phis():
    CASE(opt_copy_prop, f"""
        block b0:
          32x1 %z = load_const (0)
          32x4 %i = intrinsic load_input (%z) (base=0, slot=VAR0)
          32x4 %m = vec4 %i.x, %i.y, %i.z, %i.w
          1x1 %c = load_const (true)
        if %c {{
          block b1:
        }} else {{
          block b2:
        }}
        block b3:
          32x4 %p = phi b1: %m, b2: %m
          {store('%p')}
    """, f"""
        block b0:
          32x1 %z = load_const (0)
          32x4 %i = intrinsic load_input (%z) (base=0, slot=VAR0)
          32x4 %m = vec4 %i.x, %i.y, %i.z, %i.w
          1x1 %c = load_const (true)
        if %c {{
          block b1:
        }} else {{
          block b2:
        }}
        block b3:
          32x4 %p = phi b1: %i, b2: %i
          {store('%i')}
    """)


def test_copy_prop_keeps_partial_copy_for_intrinsics():
    NEGCASE(opt_copy_prop, f"""
        block b0:
          32x1 %z = load_const (0)
          32x4 %i = intrinsic load_input (%z) (base=0, slot=VAR0)
          32x2 %m = mov %i.xy
          intrinsic store_output (%m, %z) (base=0, slot=VAR0, write_mask=xy)
    """)


def test_dce_removes_unused_chain_keeps_side_effects():
    CASE(opt_dce, f"""
        block b0:
          32x1 %z = load_const (0)
          32x4 %i = intrinsic load_input (%z) (base=0, slot=VAR0)
          32x4 %a = fmul %i, %i
          32x4 %b = fadd %a, %a
          32x1 %c = intrinsic ssbo_atomic (%z, %z, %z) (atomic_op=add)
          32x1 %d = intrinsic load_ssbo (%z, %z) ()
          {store('%i')}
    """, f"""
        block b0:
          32x1 %z = load_const (0)
          32x4 %i = intrinsic load_input (%z) (base=0, slot=VAR0)
          32x1 %c = intrinsic ssbo_atomic (%z, %z, %z) (atomic_op=add)
          {store('%i')}
    """)


def test_dce_keeps_if_condition_and_loop_phis():
    NEGCASE(opt_dce, f"""
        block b0:
          32x1 %z = load_const (0)
          32x1 %one = load_const (1)
          32x1 %n = load_const (4)
        loop {{
          block b1:
            32x1 %i = phi b0: %z, b4: %j
            1x1 %c = ige %i, %n
          if %c {{
            block b2:
              break
          }} else {{
            block b3:
          }}
          block b4:
            32x1 %j = iadd %i, %one
        }}
        block b5:
          {store('%i')}
    """)


def test_cse_merges_dominated_and_commuted():
    CASE(opt_cse, f"""
        block b0:
          32x1 %z = load_const (0)
          32x4 %i = intrinsic load_input (%z) (base=0, slot=VAR0)
          32x4 %j = intrinsic load_input (%z) (base=0, slot=VAR0)
          32x4 %a = fmul %i, %j.yxzw
          32x4 %b = fmul %j.yxzw, %i
          32x1 %z2 = load_const (0)
          32x4 %c = fadd %a, %b
          {store('%c')}
    """, f"""
        block b0:
          32x1 %z = load_const (0)
          32x4 %i = intrinsic load_input (%z) (base=0, slot=VAR0)
          32x4 %a = fmul %i, %i.yxzw
          32x4 %c = fadd %a, %a
          {store('%c')}
    """)


def test_cse_not_across_branches_nor_for_side_effects():
    NEGCASE(opt_cse, f"""
        block b0:
          32x1 %z = load_const (0)
          1x1 %t = load_const (true)
          32x1 %s1 = intrinsic load_ssbo (%z, %z) ()
          32x1 %s2 = intrinsic load_ssbo (%z, %z) ()
        if %t {{
          block b1:
            32x1 %a = fadd %s1, %s2
        }} else {{
          block b2:
            32x1 %b = fadd %s1, %s2
        }}
        block b3:
          32x1 %p = phi b1: %a, b2: %b
          {store('%p')}
    """)


def test_dead_cf_constant_if_keeps_taken_branch():
    CASE(opt_dead_cf, f"""
        block b0:
          32x1 %z = load_const (0)
          1x1 %t = load_const (false)
        if %t {{
          block b1:
            32x1 %a = load_const (1)
        }} else {{
          block b2:
            32x1 %b = load_const (2)
        }}
        block b3:
          32x1 %p = phi b1: %a, b2: %b
          {store('%p')}
    """, f"""
        block b0:
          32x1 %z = load_const (0)
          1x1 %t = load_const (false)
          32x1 %b = load_const (2)
          {store('%b')}
    """)


def test_dead_cf_empty_if_and_single_pass_loop():
    CASE(opt_dead_cf, f"""
        block b0:
          32x1 %z = load_const (0)
          1x1 %c = intrinsic load_front_face () ()
        if %c {{
          block b1:
        }} else {{
          block b2:
        }}
        block b3:
        loop {{
          block b4:
            32x1 %a = load_const (3)
            break
        }}
        block b5:
          {store('%a')}
    """, f"""
        block b0:
          32x1 %z = load_const (0)
          1x1 %c = intrinsic load_front_face () ()
          32x1 %a = load_const (3)
          {store('%a')}
    """)


def test_dead_cf_keeps_real_branches():
    NEGCASE(opt_dead_cf, f"""
        block b0:
          32x1 %z = load_const (0)
          1x1 %c = intrinsic load_front_face () ()
        if %c {{
          block b1:
            intrinsic discard () ()
        }} else {{
          block b2:
        }}
        block b3:
    """)


def test_dead_cf_constant_break_drops_rest_of_loop_body():
    # Regression shape from unrolling: `loop { i = phi; if (true) break; ...; }`.
    CASE(opt_dead_cf, f"""
        block b0:
          32x1 %z = load_const (0)
          32x1 %one = load_const (1)
          1x1 %t = load_const (true)
        loop {{
          block b1:
            32x1 %i = phi b0: %z, b4: %j
          if %t {{
            block b2:
              break
          }} else {{
            block b3:
          }}
          block b4:
            32x1 %j = iadd %i, %one
        }}
        block b5:
          {store('%i')}
    """, f"""
        block b0:
          32x1 %z = load_const (0)
          32x1 %one = load_const (1)
          1x1 %t = load_const (true)
        loop {{
          block b1:
            32x1 %i = phi b0: %z
            break
        }}
        block b2:
          {store('%i')}
    """)


def test_dead_cf_constant_break_in_nested_if_leaves_no_dangling_phi_source():
    # Found by the random GLSL programs (seeds 76, 155, 230, 374): the constant if
    # breaks, so the code after it and the other side (defining the loop-carried %j)
    # go away; the latch stays in the structure but can no longer run, and its phi
    # source becomes an undef there rather than naming the removed %j.
    CASE(opt_dead_cf, f"""
        block b0:
          32x1 %z = load_const (0)
          32x1 %one = load_const (1)
          1x1 %t = load_const (true)
          1x1 %c = intrinsic load_front_face () ()
        loop {{
          block b1:
            32x1 %i = phi b0: %z, b7: %j
          if %c {{
            block b2:
              break
          }} else {{
            block b3:
            if %t {{
              block b4:
                break
            }} else {{
              block b5:
                32x1 %j = iadd %i, %one
            }}
            block b6:
          }}
          block b7:
        }}
        block b8:
          {store('%i')}
    """, f"""
        block b0:
          32x1 %z = load_const (0)
          32x1 %one = load_const (1)
          1x1 %t = load_const (true)
          1x1 %c = intrinsic load_front_face () ()
        loop {{
          block b1:
            32x1 %i = phi b0: %z, b4: %u
          if %c {{
            block b2:
              break
          }} else {{
            block b3:
              break
          }}
          block b4:
            32x1 %u = undef
        }}
        block b5:
          {store('%i')}
    """)


def test_copy_prop_leaves_a_ring_of_trivial_phis_in_unreachable_code():
    # After an endless loop nothing runs, and there two trivial phis can copy each
    # other (%a is %b, %b is %a): following the copies never ended (the
    # "cycle in replacement map" assertion). The ring is kept as one phi.
    CASE(opt_copy_prop, f"""
        block b0:
          32x1 %z = load_const (0)
        loop {{
          block b1:
        }}
        block b2:
        loop {{
          block b3:
            32x1 %a = phi b2: %b, b8: %a
          loop {{
            block b4:
              32x1 %b = phi b3: %a, b7: %b
              1x1 %c = intrinsic load_front_face () ()
            if %c {{
              block b5:
                break
            }} else {{
              block b6:
            }}
            block b7:
          }}
          block b8:
        }}
        block b9:
          {store('%a')}
    """, f"""
        block b0:
          32x1 %z = load_const (0)
        loop {{
          block b1:
        }}
        block b2:
        loop {{
          block b3:
            32x1 %a = phi b2: %b, b8: %b
          loop {{
            block b4:
              32x1 %b = phi b3: %b, b7: %b
              1x1 %c = intrinsic load_front_face () ()
            if %c {{
              block b5:
                break
            }} else {{
              block b6:
            }}
            block b7:
          }}
          block b8:
        }}
        block b9:
          {store('%b')}
    """)
