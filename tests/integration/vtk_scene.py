"""A VTK scene, rendered offscreen by VTK's own EGL render window (run by
test_vtk.py under shimgl and under Mesa): ``vtk_scene.py OUT MODE``, MODE one of

- ``surface``: a sphere coloured by elevation through a lookup table, specular,
  and a cone with its edges drawn (VTK's polydata mapper, edges by a GLSL pass);
- ``shadows``: a spot light's shadow map (vtkShadowMapPass: the baker writes
  exp(c * depth) from gl_FragCoord.w into an R32F target, the lighting pass
  reads it);
- ``volume``: GPU ray casting of a 32^3 Gaussian blob (vtkGPUVolumeRayCastMapper:
  a 3D texture, a ray loop per fragment, the depth pass);
- ``peeling``: three translucent spheres through depth peeling (float depth
  textures, many passes, occlusion queries);
- ``text``: a text actor (FreeType glyphs as a texture) over a cube;
- ``pbr``: a metallic sphere lit by an environment cube map (VTK precomputes a
  BRDF lookup table and irradiance/prefiltered cube maps by rendering into
  RGB16F cube faces).

Saves OUT (npz, ``image``: the 96x128 RGB image, top row first), prints
"renderer <GL_RENDERER>" and "OK" last."""

import sys

import numpy as np
import vtk
from vtk.util.numpy_support import numpy_to_vtk, vtk_to_numpy

out, mode = sys.argv[1], sys.argv[2]
ren = vtk.vtkRenderer()
ren.SetBackground(0.1, 0.2, 0.3)
win = vtk.vtkRenderWindow()
win.SetOffScreenRendering(1)
win.SetSize(128, 96)
win.AddRenderer(ren)


KEEP = []      # VTK's pipeline does not own its sources: a collected one crashes the render


def actor(source, color=(1.0, 1.0, 1.0), opacity=1.0):
    KEEP.append(source)
    mapper = vtk.vtkPolyDataMapper()
    mapper.SetInputConnection(source.GetOutputPort())
    a = vtk.vtkActor()
    a.SetMapper(mapper)
    a.GetProperty().SetColor(*color)
    a.GetProperty().SetOpacity(opacity)
    ren.AddActor(a)
    return a


def sphere(center=(0.0, 0.0, 0.0)):
    s = vtk.vtkSphereSource()
    s.SetCenter(*center)
    s.SetThetaResolution(24)
    s.SetPhiResolution(16)
    KEEP.append(s)
    return s


def floor():
    p = vtk.vtkPlaneSource()
    p.SetOrigin(-2, -0.5, -2)
    p.SetPoint1(2, -0.5, -2)
    p.SetPoint2(-2, -0.5, 2)
    KEEP.append(p)
    return p


if mode == "surface":
    elevation = vtk.vtkElevationFilter()
    elevation.SetInputConnection(sphere().GetOutputPort())
    elevation.SetLowPoint(0, -0.5, 0)
    elevation.SetHighPoint(0, 0.5, 0)
    mapper = vtk.vtkPolyDataMapper()
    mapper.SetInputConnection(elevation.GetOutputPort())
    ball = vtk.vtkActor()
    ball.SetMapper(mapper)
    ball.GetProperty().SetSpecular(0.5)
    ball.GetProperty().SetSpecularPower(20)
    ren.AddActor(ball)
    cone = vtk.vtkConeSource()
    cone.SetResolution(24)
    cone.SetCenter(1.0, 0, 0)
    c = actor(cone, (1.0, 0.6, 0.1))
    c.GetProperty().EdgeVisibilityOn()
    c.GetProperty().SetEdgeColor(0, 0, 0)
elif mode == "shadows":
    actor(sphere())
    actor(floor(), (0.8, 0.8, 0.8))
    light = vtk.vtkLight()
    light.SetPosition(1, 3, 1)
    light.SetFocalPoint(0, 0, 0)
    light.SetPositional(1)
    light.SetConeAngle(60)
    ren.AddLight(light)
    shadows = vtk.vtkShadowMapPass()
    passes = vtk.vtkRenderPassCollection()
    passes.AddItem(shadows.GetShadowMapBakerPass())
    passes.AddItem(shadows)
    sequence = vtk.vtkSequencePass()
    sequence.SetPasses(passes)
    camera = vtk.vtkCameraPass()
    camera.SetDelegatePass(sequence)
    ren.SetPass(camera)
elif mode == "volume":
    n = 32
    z, y, x = np.mgrid[0:n, 0:n, 0:n].astype(np.float32)
    blob = np.exp(-((x - 16) ** 2 + (y - 16) ** 2 + (z - 16) ** 2) / 60.0) * 255
    image = vtk.vtkImageData()
    image.SetDimensions(n, n, n)
    image.GetPointData().SetScalars(numpy_to_vtk(blob.astype(np.uint8).ravel(), deep=1))
    mapper = vtk.vtkGPUVolumeRayCastMapper()
    mapper.SetInputData(image)
    colors = vtk.vtkColorTransferFunction()
    colors.AddRGBPoint(0, 0, 0, 0)
    colors.AddRGBPoint(128, 1, 0.5, 0)
    colors.AddRGBPoint(255, 1, 1, 1)
    opacity = vtk.vtkPiecewiseFunction()
    opacity.AddPoint(0, 0)
    opacity.AddPoint(255, 0.8)
    prop = vtk.vtkVolumeProperty()
    prop.SetColor(colors)
    prop.SetScalarOpacity(opacity)
    prop.SetInterpolationTypeToLinear()
    volume = vtk.vtkVolume()
    volume.SetMapper(mapper)
    volume.SetProperty(prop)
    ren.AddVolume(volume)
elif mode == "peeling":
    ren.SetUseDepthPeeling(1)
    ren.SetMaximumNumberOfPeels(8)
    ren.SetOcclusionRatio(0.0)
    win.SetAlphaBitPlanes(1)
    win.SetMultiSamples(0)
    for i, color in enumerate([(1, 0, 0), (0, 1, 0), (0, 0, 1)]):
        actor(sphere((i * 0.5, 0, 0)), color, 0.5)
elif mode == "text":
    text = vtk.vtkTextActor()
    text.SetInput("shimgl")
    text.GetTextProperty().SetFontSize(24)
    text.SetPosition(10, 30)
    ren.AddViewProp(text)
    actor(vtk.vtkCubeSource(), (0.3, 0.9, 0.3))
elif mode == "pbr":
    ball = actor(sphere(), (0.8, 0.5, 0.2))
    ball.GetProperty().SetInterpolationToPBR()
    ball.GetProperty().SetMetallic(0.8)
    ball.GetProperty().SetRoughness(0.3)
    ren.UseImageBasedLightingOn()
    sky = vtk.vtkTexture()
    sky.CubeMapOn()
    for face in range(6):
        side = vtk.vtkImageData()
        side.SetDimensions(8, 8, 1)
        rgb = np.zeros((8, 8, 3), np.uint8)
        rgb[..., face % 3] = 60 + 30 * face
        side.GetPointData().SetScalars(numpy_to_vtk(rgb.reshape(-1, 3), deep=1))
        sky.SetInputDataObject(face, side)
    ren.SetEnvironmentTexture(sky)
else:
    raise SystemExit(f"unknown mode {mode}")

ren.ResetCamera()
if mode == "shadows":
    ren.GetActiveCamera().Elevation(30)
    ren.ResetCameraClippingRange()
win.Render()
caps = win.ReportCapabilities()
print("renderer", caps.split("OpenGL renderer string:")[1].splitlines()[0].strip())
grab = vtk.vtkWindowToImageFilter()
grab.SetInput(win)
grab.ReadFrontBufferOff()
grab.Update()
result = grab.GetOutput()
width, height, _ = result.GetDimensions()
pixels = vtk_to_numpy(result.GetPointData().GetScalars()).reshape(height, width, -1)[::-1, :, :3]
np.savez(out, image=pixels)
print("OK")
sys.stdout.flush()
