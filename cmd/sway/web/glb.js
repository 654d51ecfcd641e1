// glb.js reads what the viewer draws from a binary glTF (.glb, .vrm):
// every skinned primitive's POSITION, NORMAL, JOINTS_0, WEIGHTS_0 and
// indices, with its material's base colour factor and the skin it is
// bound to. Nothing else of the file is read (the server reads the rig).
"use strict";

// componentType -> [DataView getter, bytes per component]
const GLB_COMPONENTS = {
  5120: ["getInt8", 1],
  5121: ["getUint8", 1],
  5122: ["getInt16", 2],
  5123: ["getUint16", 2],
  5125: ["getUint32", 4],
  5126: ["getFloat32", 4],
};
const GLB_SIZES = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4, MAT4: 16 };
// what a normalized integer component is divided by
const GLB_NORM = { 5120: 127, 5121: 255, 5122: 32767, 5123: 65535 };

// parseGLB returns {meshes: [{skin, material: [r, g, b, a], doubleSided,
// position, normal, joints, weights (Float32Array), indices
// (Uint32Array), count}]} or throws an Error saying what is wrong.
function parseGLB(buf) {
  const dv = new DataView(buf);
  if (buf.byteLength < 20 || dv.getUint32(0, true) !== 0x46546c67) {
    throw new Error("not a binary glTF file (.glb, .vrm): the viewer draws only those");
  }
  if (dv.getUint32(4, true) !== 2) {
    throw new Error("glTF version " + dv.getUint32(4, true) + ": the viewer reads version 2");
  }
  let json = null;
  let bin = null;
  for (let off = 12; off + 8 <= buf.byteLength; ) {
    const len = dv.getUint32(off, true);
    const type = dv.getUint32(off + 4, true);
    if (off + 8 + len > buf.byteLength) throw new Error("chunk at byte " + off + " runs past the file");
    const body = new Uint8Array(buf, off + 8, len);
    if (type === 0x4e4f534a) json = JSON.parse(new TextDecoder().decode(body));
    else if (type === 0x004e4942 && bin === null) bin = body;
    off += 8 + len;
  }
  if (json === null) throw new Error("no JSON chunk");

  // accessor reads accessor i as a flat array of numbers: a Float32Array
  // (normalized integers divided out) or, with asInt, a Uint32Array.
  function accessor(i, asInt) {
    const acc = json.accessors && json.accessors[i];
    if (!acc) throw new Error("accessors[" + i + "]: missing");
    const comp = GLB_COMPONENTS[acc.componentType];
    const n = GLB_SIZES[acc.type];
    if (!comp || !n) throw new Error("accessors[" + i + "]: componentType " + acc.componentType + " type " + acc.type);
    const out = asInt ? new Uint32Array(acc.count * n) : new Float32Array(acc.count * n);
    if (acc.bufferView === undefined) return out; // all zeros (sparse accessors are not read)
    const view = json.bufferViews[acc.bufferView];
    if (!view || (view.buffer || 0) !== 0 || bin === null) throw new Error("accessors[" + i + "]: its data is not in the file's binary chunk");
    const [get, size] = comp;
    const stride = view.byteStride || size * n;
    const start = bin.byteOffset + (view.byteOffset || 0) + (acc.byteOffset || 0);
    const end = start + stride * (acc.count - 1) + size * n;
    if (acc.count > 0 && end > bin.byteOffset + bin.byteLength) throw new Error("accessors[" + i + "]: runs past the binary chunk");
    const norm = acc.normalized && !asInt ? GLB_NORM[acc.componentType] || 1 : 1;
    for (let k = 0; k < acc.count; k++) {
      for (let c = 0; c < n; c++) out[k * n + c] = dv[get](start + k * stride + c * size, true) / norm;
    }
    return out;
  }

  const meshes = [];
  (json.nodes || []).forEach((node, ni) => {
    if (node.mesh === undefined || node.skin === undefined) return; // only skinned meshes are drawn
    const mesh = json.meshes[node.mesh];
    mesh.primitives.forEach((prim, pi) => {
      const a = prim.attributes;
      const where = "nodes[" + ni + "] meshes[" + node.mesh + "].primitives[" + pi + "]";
      if ((prim.mode !== undefined && prim.mode !== 4) || a.POSITION === undefined || a.JOINTS_0 === undefined || a.WEIGHTS_0 === undefined) {
        console.warn(where + ": not triangles with POSITION, JOINTS_0 and WEIGHTS_0; not drawn");
        return;
      }
      const position = accessor(a.POSITION, false);
      const count = position.length / 3;
      let indices;
      if (prim.indices !== undefined) {
        indices = accessor(prim.indices, true);
      } else {
        indices = new Uint32Array(count);
        for (let k = 0; k < count; k++) indices[k] = k;
      }
      const mat = prim.material !== undefined ? json.materials[prim.material] : {};
      const pbr = mat.pbrMetallicRoughness || {};
      meshes.push({
        skin: node.skin,
        material: pbr.baseColorFactor || [1, 1, 1, 1],
        doubleSided: !!mat.doubleSided,
        position,
        normal: a.NORMAL !== undefined ? accessor(a.NORMAL, false) : new Float32Array(count * 3),
        joints: accessor(a.JOINTS_0, false),
        weights: accessor(a.WEIGHTS_0, false),
        indices,
        count,
      });
    });
  });
  return { meshes };
}

if (typeof module !== "undefined") module.exports = { parseGLB };
