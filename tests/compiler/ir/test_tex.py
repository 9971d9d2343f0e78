"""lower_tex_lod: textureQueryLod from derivatives and the sampler's LOD parameters (before/after IR)."""

from compiler.ir.passes.tex import lower_tex_lod

from .irtest import CASE, NEGCASE


def test_query_lod_becomes_derivatives_size_and_levels():
    CASE(lower_tex_lod, """
        block b0:
          32x1 %z = load_const (0)
          32x2 %uv = intrinsic load_input (%z) (base=2, component=0, slot=VAR0, interp=smooth)
          32x2 %l = tex lod (coord=%uv) (texture=1, sampler=1, dim=2d)
          32x1 %o = load_const (0)
          intrinsic store_output (%l, %o) (base=0, component=0, slot=FRAG_RESULT_DATA0, write_mask=xy)
    """, """
        block b0:
          32x1 %z = load_const (0)
          32x2 %uv = intrinsic load_input (%z) (base=2, component=0, slot=VAR0, interp=smooth)
          32x2 %dx = fddx %uv
          32x2 %dy = fddy %uv
          32x1 %l0 = load_const (0)
          32x2 %size = tex txs (lod=%l0) (texture=1, sampler=1, dim=2d, dest_type=int)
          32x2 %sizef = i2f32 %size
          32x2 %tx = fmul %dx, %sizef
          32x2 %ty = fmul %dy, %sizef
          32x1 %rx = fdot2 %tx, %tx
          32x1 %ry = fdot2 %ty, %ty
          32x1 %rho2 = fmax %rx, %ry
          32x1 %lg = flog2 %rho2
          32x1 %half = load_const (0.5)
          32x1 %lambda = fmul %lg, %half
          32x4 %prm = intrinsic load_sampler_lod_parameters () (sampler=1)
          32x1 %mn = mov %prm.x
          32x1 %mx = mov %prm.y
          32x1 %bias = mov %prm.z
          32x1 %mip = mov %prm.w
          32x1 %lp = fadd %lambda, %bias
          32x1 %lv = tex query_levels () (texture=1, sampler=1, dim=2d, dest_type=int)
          32x1 %lvf = i2f32 %lv
          32x1 %m1 = load_const (-1.0)
          32x1 %last = fadd %lvf, %m1
          32x1 %zero = load_const (0)
          32x1 %top = fmax %last, %zero
          32x1 %c0 = fmax %lp, %mn
          32x1 %c1 = fmin %c0, %mx
          32x1 %zero2 = load_const (0)
          32x1 %c2 = fmax %c1, %zero2
          32x1 %c = fmin %c2, %top
          32x1 %h5 = load_const (0.5)
          32x1 %ch = fadd %c, %h5
          32x1 %cc = fceil %ch
          32x1 %m1b = load_const (-1.0)
          32x1 %near = fadd %cc, %m1b
          32x1 %h5b = load_const (0.5)
          1x1 %isnone = flt %mip, %h5b
          32x1 %zero3 = load_const (0)
          32x1 %h15 = load_const (1.5)
          1x1 %isnear = flt %mip, %h15
          32x1 %lin = bcsel %isnear, %near, %c
          32x1 %x = bcsel %isnone, %zero3, %lin
          32x2 %r = vec2 %x, %lp
          32x1 %o = load_const (0)
          intrinsic store_output (%r, %o) (base=0, component=0, slot=FRAG_RESULT_DATA0, write_mask=xy)
    """)


def test_other_texture_ops_are_left_alone():
    NEGCASE(lower_tex_lod, """
        block b0:
          32x1 %z = load_const (0)
          32x2 %uv = intrinsic load_input (%z) (base=2, component=0, slot=VAR0, interp=smooth)
          32x4 %c = tex tex (coord=%uv) (texture=0, sampler=0, dim=2d)
          32x1 %o = load_const (0)
          intrinsic store_output (%c, %o) (base=0, component=0, slot=FRAG_RESULT_DATA0, write_mask=xyzw)
    """)


def test_cube_maps_project_on_the_major_axis():
    CASE(lower_tex_lod, """
        block b0:
          32x1 %z = load_const (0)
          32x3 %d = intrinsic load_input (%z) (base=2, component=0, slot=VAR0, interp=smooth)
          32x2 %l = tex lod (coord=%d) (texture=0, sampler=0, dim=cube)
          32x1 %o = load_const (0)
          intrinsic store_output (%l, %o) (base=0, component=0, slot=FRAG_RESULT_DATA0, write_mask=xy)
    """, """
        block b0:
          32x1 %z = load_const (0)
          32x3 %d = intrinsic load_input (%z) (base=2, component=0, slot=VAR0, interp=smooth)
          32x3 %a = fabs %d
          32x1 %ax = mov %a.x
          32x1 %ay = mov %a.y
          32x1 %az = mov %a.z
          32x1 %myz = fmax %ay, %az
          32x1 %major = fmax %ax, %myz
          32x1 %inv = frcp %major
          32x3 %p = fmul %d, %inv.xxx
          32x3 %dx = fddx %p
          32x3 %dy = fddy %p
          32x1 %l0 = load_const (0)
          32x2 %size = tex txs (lod=%l0) (texture=0, sampler=0, dim=cube, dest_type=int)
          32x2 %sizef = i2f32 %size
          32x3 %s3 = mov %sizef.xxx
          32x1 %h = load_const (0.5)
          32x3 %face = fmul %s3, %h.xxx
          32x3 %tx = fmul %dx, %face
          32x3 %ty = fmul %dy, %face
          32x1 %rx = fdot3 %tx, %tx
          32x1 %ry = fdot3 %ty, %ty
          32x1 %rho2 = fmax %rx, %ry
          32x1 %lg = flog2 %rho2
          32x1 %half = load_const (0.5)
          32x1 %lambda = fmul %lg, %half
          32x4 %prm = intrinsic load_sampler_lod_parameters () (sampler=0)
          32x1 %mn = mov %prm.x
          32x1 %mx = mov %prm.y
          32x1 %bias = mov %prm.z
          32x1 %mip = mov %prm.w
          32x1 %lp = fadd %lambda, %bias
          32x1 %lv = tex query_levels () (texture=0, sampler=0, dim=cube, dest_type=int)
          32x1 %lvf = i2f32 %lv
          32x1 %m1 = load_const (-1.0)
          32x1 %last = fadd %lvf, %m1
          32x1 %zero = load_const (0)
          32x1 %top = fmax %last, %zero
          32x1 %c0 = fmax %lp, %mn
          32x1 %c1 = fmin %c0, %mx
          32x1 %zero2 = load_const (0)
          32x1 %c2 = fmax %c1, %zero2
          32x1 %c = fmin %c2, %top
          32x1 %h5 = load_const (0.5)
          32x1 %ch = fadd %c, %h5
          32x1 %cc = fceil %ch
          32x1 %m1b = load_const (-1.0)
          32x1 %near = fadd %cc, %m1b
          32x1 %h5b = load_const (0.5)
          1x1 %isnone = flt %mip, %h5b
          32x1 %zero3 = load_const (0)
          32x1 %h15 = load_const (1.5)
          1x1 %isnear = flt %mip, %h15
          32x1 %lin = bcsel %isnear, %near, %c
          32x1 %x = bcsel %isnone, %zero3, %lin
          32x2 %r = vec2 %x, %lp
          32x1 %o = load_const (0)
          intrinsic store_output (%r, %o) (base=0, component=0, slot=FRAG_RESULT_DATA0, write_mask=xy)
    """)
