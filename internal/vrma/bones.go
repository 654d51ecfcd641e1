package vrma

// humanBone is one bone of the VRM 1.0 humanoid: its name and the index of
// its parent bone in humanBones (-1 for hips).
type humanBone struct {
	name   string
	parent int
}

// humanBones lists the humanoid bones of VRM 1.0 (VRMC_vrm-1.0/humanoid.md,
// "Humanoid bone parent-child relationship"; three-vrm's
// VRMHumanBoneParentMap) with their parents, every parent before its
// children.
var humanBones = func() []humanBone {
	pairs := [][2]string{
		{"hips", ""},
		{"spine", "hips"},
		{"chest", "spine"},
		{"upperChest", "chest"},
		{"neck", "upperChest"},
		{"head", "neck"},
		{"leftEye", "head"},
		{"rightEye", "head"},
		{"jaw", "head"},
		{"leftUpperLeg", "hips"},
		{"leftLowerLeg", "leftUpperLeg"},
		{"leftFoot", "leftLowerLeg"},
		{"leftToes", "leftFoot"},
		{"rightUpperLeg", "hips"},
		{"rightLowerLeg", "rightUpperLeg"},
		{"rightFoot", "rightLowerLeg"},
		{"rightToes", "rightFoot"},
		{"leftShoulder", "upperChest"},
		{"leftUpperArm", "leftShoulder"},
		{"leftLowerArm", "leftUpperArm"},
		{"leftHand", "leftLowerArm"},
		{"rightShoulder", "upperChest"},
		{"rightUpperArm", "rightShoulder"},
		{"rightLowerArm", "rightUpperArm"},
		{"rightHand", "rightLowerArm"},
	}
	for _, side := range []string{"left", "right"} {
		pairs = append(pairs,
			[2]string{side + "ThumbMetacarpal", side + "Hand"},
			[2]string{side + "ThumbProximal", side + "ThumbMetacarpal"},
			[2]string{side + "ThumbDistal", side + "ThumbProximal"})
		for _, f := range []string{"Index", "Middle", "Ring", "Little"} {
			pairs = append(pairs,
				[2]string{side + f + "Proximal", side + "Hand"},
				[2]string{side + f + "Intermediate", side + f + "Proximal"},
				[2]string{side + f + "Distal", side + f + "Intermediate"})
		}
	}
	out := make([]humanBone, len(pairs))
	index := map[string]int{}
	for i, p := range pairs {
		parent := -1
		if p[1] != "" {
			parent = index[p[1]]
		}
		out[i] = humanBone{name: p[0], parent: parent}
		index[p[0]] = i
	}
	return out
}()

// humanIndex maps a VRM 1.0 humanoid bone name to its index in humanBones.
var humanIndex = func() map[string]int {
	m := make(map[string]int, len(humanBones))
	for i, b := range humanBones {
		m[b.name] = i
	}
	return m
}()

// IsHumanBone reports whether name is a VRM 1.0 humanoid bone name.
func IsHumanBone(name string) bool {
	_, ok := humanIndex[name]
	return ok
}

// HumanBoneParent returns the parent of a VRM 1.0 humanoid bone in the
// humanoid hierarchy ("" for hips and for an unknown name).
func HumanBoneParent(name string) string {
	if i, ok := humanIndex[name]; ok && humanBones[i].parent >= 0 {
		return humanBones[humanBones[i].parent].name
	}
	return ""
}

// Name1 returns the VRM 1.0 name of a VRM 0.x humanoid bone name. The two
// lists differ only in the thumb: 0.x's thumbProximal, thumbIntermediate
// and thumbDistal are 1.0's thumbMetacarpal, thumbProximal and thumbDistal
// (as three-vrm and UniVRM map them). Other names are returned unchanged.
func Name1(name0 string) string {
	switch name0 {
	case "leftThumbProximal":
		return "leftThumbMetacarpal"
	case "leftThumbIntermediate":
		return "leftThumbProximal"
	case "rightThumbProximal":
		return "rightThumbMetacarpal"
	case "rightThumbIntermediate":
		return "rightThumbProximal"
	}
	return name0
}
