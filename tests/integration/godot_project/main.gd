# The scene of test_godot.py, built in code: a camera, a directional light with shadows,
# an environment (ambient light, ACES tone mapping, glow), a box, a sphere and a floor with
# SpatialMaterials. Saves the viewport at the third frame to $OUT_PNG and quits.
extends Spatial
var frames = 0
func _ready():
	var cam = Camera.new()
	cam.translation = Vector3(0, 2, 6)
	cam.rotation_degrees = Vector3(-15, 0, 0)
	add_child(cam)
	cam.current = true
	var light = DirectionalLight.new()
	light.rotation_degrees = Vector3(-50, 30, 0)
	light.shadow_enabled = true
	add_child(light)
	var env = Environment.new()
	env.background_mode = Environment.BG_COLOR
	env.background_color = Color(0.1, 0.12, 0.2)
	env.ambient_light_color = Color(0.3, 0.3, 0.35)
	env.tonemap_mode = Environment.TONE_MAPPER_ACES
	env.glow_enabled = true
	var we = WorldEnvironment.new()
	we.environment = env
	add_child(we)
	var cube = MeshInstance.new()
	cube.mesh = CubeMesh.new()
	var m = SpatialMaterial.new()
	m.albedo_color = Color(0.9, 0.3, 0.2)
	cube.material_override = m
	cube.rotation_degrees = Vector3(0, 30, 0)
	cube.translation = Vector3(-1.2, 0.5, 0)
	add_child(cube)
	var sph = MeshInstance.new()
	sph.mesh = SphereMesh.new()
	var m2 = SpatialMaterial.new()
	m2.albedo_color = Color(0.2, 0.6, 0.9)
	m2.metallic = 0.3
	m2.roughness = 0.4
	sph.material_override = m2
	sph.translation = Vector3(1.2, 0.8, 0)
	add_child(sph)
	var floor_ = MeshInstance.new()
	floor_.mesh = PlaneMesh.new()
	floor_.scale = Vector3(5, 1, 5)
	var m3 = SpatialMaterial.new()
	m3.albedo_color = Color(0.5, 0.5, 0.5)
	floor_.material_override = m3
	add_child(floor_)
	print("renderer ", VisualServer.get_video_adapter_name(), " | ", VisualServer.get_video_adapter_vendor())
func _process(_delta):
	frames += 1
	if frames == 3:
		var img = get_viewport().get_texture().get_data()
		img.flip_y()
		img.save_png(OS.get_environment("OUT_PNG"))
		print("saved")
		get_tree().quit()
