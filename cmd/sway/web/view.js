// view.js draws the model the server simulates: it fetches /model.glb,
// skins it on the GPU with the matrices streamed on /ws (16 float32 per
// joint, column-major, every skin's joints in a row) and sends the
// controls back as JSON (see cmd/sway/view.go for the protocol).
"use strict";

const $ = (id) => document.getElementById(id);
const statusEl = $("status");
const view = {
  hello: null, // the server's description of the model
  state: null, // playback state, as the server last said
  frame: null, // the latest frame's matrices (Float32Array)
  frames: 0, // frames received
  dirty: false, // a frame not yet uploaded
  meshes: [], // GL objects per primitive
  ws: null,
  yaw: 0.6, pitch: 0.25, dist: 3.2, target: [0, 0.8, 0], followed: false,
};

function setStatus() {
  let s = statusEl.dataset.state;
  if (s !== "error" && view.ws && view.ws.readyState === WebSocket.OPEN) s = "running";
  statusEl.dataset.state = s;
  statusEl.dataset.frames = String(view.frames);
  statusEl.textContent = s + " · " + view.frames + " frames · " + statusEl.dataset.fps + " fps";
}

function showError(msg) {
  const el = $("error");
  el.textContent = msg;
  el.style.display = msg ? "block" : "none";
  if (msg) console.warn(msg);
}

// ---- matrices: column-major Float32Array(16) ----

function mul4(a, b) {
  const o = new Float32Array(16);
  for (let c = 0; c < 4; c++)
    for (let r = 0; r < 4; r++)
      o[c * 4 + r] = a[r] * b[c * 4] + a[4 + r] * b[c * 4 + 1] + a[8 + r] * b[c * 4 + 2] + a[12 + r] * b[c * 4 + 3];
  return o;
}

function point(m, p) {
  return [
    m[0] * p[0] + m[4] * p[1] + m[8] * p[2] + m[12],
    m[1] * p[0] + m[5] * p[1] + m[9] * p[2] + m[13],
    m[2] * p[0] + m[6] * p[1] + m[10] * p[2] + m[14],
  ];
}

function perspective(fovy, aspect, near, far) {
  const f = 1 / Math.tan(fovy / 2);
  const o = new Float32Array(16);
  o[0] = f / aspect; o[5] = f; o[10] = (far + near) / (near - far); o[11] = -1; o[14] = (2 * far * near) / (near - far);
  return o;
}

function lookAt(eye, at) {
  const sub = (a, b) => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
  const norm = (a) => { const l = Math.hypot(a[0], a[1], a[2]) || 1; return [a[0] / l, a[1] / l, a[2] / l]; };
  const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
  const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
  const z = norm(sub(eye, at));
  const x = norm(cross([0, 1, 0], z));
  const y = cross(z, x);
  return new Float32Array([x[0], y[0], z[0], 0, x[1], y[1], z[1], 0, x[2], y[2], z[2], 0, -dot(x, eye), -dot(y, eye), -dot(z, eye), 1]);
}

// jointWorld is joint j's world matrix this frame: its skinning matrix
// times its bind matrix.
function jointWorld(j) {
  const m = view.frame.subarray(16 * j, 16 * j + 16);
  return mul4(m, view.hello.bind.slice(16 * j, 16 * j + 16));
}

// ---- WebGL ----

const canvas = $("view");
const gl = canvas.getContext("webgl2", { antialias: true });

const MESH_VS = `#version 300 es
layout(location = 0) in vec3 a_pos;
layout(location = 1) in vec3 a_nrm;
layout(location = 2) in vec4 a_joints;
layout(location = 3) in vec4 a_weights;
uniform highp sampler2D u_joints; // a row per joint, a column of the matrix per texel
uniform int u_base;               // the skin's first joint
uniform mat4 u_viewProj;
out vec3 v_nrm;
mat4 joint(float j) {
  int row = u_base + int(j + 0.5);
  return mat4(texelFetch(u_joints, ivec2(0, row), 0), texelFetch(u_joints, ivec2(1, row), 0),
              texelFetch(u_joints, ivec2(2, row), 0), texelFetch(u_joints, ivec2(3, row), 0));
}
void main() {
  mat4 m = a_weights.x * joint(a_joints.x) + a_weights.y * joint(a_joints.y) +
           a_weights.z * joint(a_joints.z) + a_weights.w * joint(a_joints.w);
  v_nrm = mat3(m) * a_nrm;
  gl_Position = u_viewProj * m * vec4(a_pos, 1.0);
}`;

const MESH_FS = `#version 300 es
precision mediump float;
uniform vec4 u_color;
in vec3 v_nrm;
out vec4 o_color;
void main() {
  vec3 n = normalize(v_nrm) * (gl_FrontFacing ? 1.0 : -1.0);
  float light = 0.35 + 0.65 * max(dot(n, normalize(vec3(0.4, 0.8, 0.6))), 0.0);
  o_color = vec4(u_color.rgb * light, 1.0);
}`;

const LINE_VS = `#version 300 es
layout(location = 0) in vec3 a_pos;
uniform mat4 u_viewProj;
void main() { gl_Position = u_viewProj * vec4(a_pos, 1.0); }`;

const LINE_FS = `#version 300 es
precision mediump float;
uniform vec4 u_color;
out vec4 o_color;
void main() { o_color = u_color; }`;

function program(vs, fs) {
  const p = gl.createProgram();
  for (const [type, src] of [[gl.VERTEX_SHADER, vs], [gl.FRAGMENT_SHADER, fs]]) {
    const s = gl.createShader(type);
    gl.shaderSource(s, src);
    gl.compileShader(s);
    if (!gl.getShaderParameter(s, gl.COMPILE_STATUS)) throw new Error("shader: " + gl.getShaderInfoLog(s));
    gl.attachShader(p, s);
  }
  gl.linkProgram(p);
  if (!gl.getProgramParameter(p, gl.LINK_STATUS)) throw new Error("program: " + gl.getProgramInfoLog(p));
  const u = {};
  for (let i = 0; i < gl.getProgramParameter(p, gl.ACTIVE_UNIFORMS); i++) {
    const name = gl.getActiveUniform(p, i).name;
    u[name] = gl.getUniformLocation(p, name);
  }
  return { p, u };
}

let meshProg, lineProg, jointTex, lineBuf, lineVAO;

function initGL() {
  if (!gl) throw new Error("this browser has no WebGL2");
  meshProg = program(MESH_VS, MESH_FS);
  lineProg = program(LINE_VS, LINE_FS);
  jointTex = gl.createTexture();
  gl.bindTexture(gl.TEXTURE_2D, jointTex);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST);
  lineBuf = gl.createBuffer();
  lineVAO = gl.createVertexArray();
  gl.bindVertexArray(lineVAO);
  gl.bindBuffer(gl.ARRAY_BUFFER, lineBuf);
  gl.enableVertexAttribArray(0);
  gl.vertexAttribPointer(0, 3, gl.FLOAT, false, 0, 0);
  gl.bindVertexArray(null);
  gl.enable(gl.DEPTH_TEST);
}

function uploadMeshes(glb) {
  view.meshes = glb.meshes.map((m) => {
    const vao = gl.createVertexArray();
    gl.bindVertexArray(vao);
    [[m.position, 3], [m.normal, 3], [m.joints, 4], [m.weights, 4]].forEach(([data, n], loc) => {
      gl.bindBuffer(gl.ARRAY_BUFFER, gl.createBuffer());
      gl.bufferData(gl.ARRAY_BUFFER, data, gl.STATIC_DRAW);
      gl.enableVertexAttribArray(loc);
      gl.vertexAttribPointer(loc, n, gl.FLOAT, false, 0, 0);
    });
    gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, gl.createBuffer());
    gl.bufferData(gl.ELEMENT_ARRAY_BUFFER, m.indices, gl.STATIC_DRAW);
    gl.bindVertexArray(null);
    return { vao, count: m.indices.length, skin: m.skin, color: m.material };
  });
}

function drawLines(vp, pts, color) {
  if (pts.length === 0) return;
  gl.useProgram(lineProg.p);
  gl.uniformMatrix4fv(lineProg.u.u_viewProj, false, vp);
  gl.uniform4fv(lineProg.u.u_color, color);
  gl.bindVertexArray(lineVAO);
  gl.bindBuffer(gl.ARRAY_BUFFER, lineBuf);
  gl.bufferData(gl.ARRAY_BUFFER, new Float32Array(pts), gl.STREAM_DRAW);
  gl.drawArrays(gl.LINES, 0, pts.length / 3);
  gl.bindVertexArray(null);
}

function gridLines() {
  const pts = [];
  for (let k = -5; k <= 5; k++) pts.push(k, 0, -5, k, 0, 5, -5, 0, k, 5, 0, k);
  return pts;
}
const GRID = gridLines();

// circle adds a circle about c in the plane of unit axes u and v.
function circle(pts, c, u, v, r) {
  const n = 24;
  for (let k = 0; k < n; k++) {
    const a = (2 * Math.PI * k) / n, b = (2 * Math.PI * (k + 1)) / n;
    for (const t of [a, b])
      pts.push(c[0] + r * (Math.cos(t) * u[0] + Math.sin(t) * v[0]), c[1] + r * (Math.cos(t) * u[1] + Math.sin(t) * v[1]),
        c[2] + r * (Math.cos(t) * u[2] + Math.sin(t) * v[2]));
  }
}

function ball(pts, c, r) {
  circle(pts, c, [1, 0, 0], [0, 1, 0], r);
  circle(pts, c, [0, 1, 0], [0, 0, 1], r);
  circle(pts, c, [0, 0, 1], [1, 0, 0], r);
}

function overlays(vp) {
  const h = view.hello;
  if ($("bones").checked) {
    const pts = [];
    const pos = [];
    for (let j = 0; j < h.joints; j++) pos.push(point(view.frame.subarray(16 * j, 16 * j + 16), h.bind.slice(16 * j + 12, 16 * j + 15)));
    h.parents.forEach((p, j) => { if (p >= 0) pts.push(...pos[p], ...pos[j]); });
    gl.disable(gl.DEPTH_TEST);
    drawLines(vp, pts, [1, 0.9, 0.2, 1]);
    gl.enable(gl.DEPTH_TEST);
  }
  if ($("colliders").checked) {
    const pts = [];
    for (const c of h.colliders) {
      if (c.joint < 0 || c.kind === "plane") continue;
      const m = jointWorld(c.joint);
      const a = point(m, c.offset);
      ball(pts, a, c.radius);
      if (c.kind === "capsule") {
        const b = point(m, c.tail);
        ball(pts, b, c.tailRadius);
        for (const d of [[1, 0, 0], [-1, 0, 0], [0, 0, 1], [0, 0, -1]])
          pts.push(a[0] + c.radius * d[0], a[1], a[2] + c.radius * d[2], b[0] + c.tailRadius * d[0], b[1], b[2] + c.tailRadius * d[2]);
      }
    }
    drawLines(vp, pts, [0.3, 1, 0.5, 1]);
  }
}

let fpsCount = 0, fpsStart = performance.now();

function render() {
  if (!gl) return;
  requestAnimationFrame(render);
  fpsCount++;
  const now = performance.now();
  if (now - fpsStart >= 1000) {
    statusEl.dataset.fps = String(Math.round((fpsCount * 1000) / (now - fpsStart)));
    fpsCount = 0;
    fpsStart = now;
    setStatus();
  }
  const w = canvas.clientWidth * devicePixelRatio, hgt = canvas.clientHeight * devicePixelRatio;
  if (canvas.width !== w || canvas.height !== hgt) { canvas.width = w; canvas.height = hgt; }
  gl.viewport(0, 0, canvas.width, canvas.height);
  gl.clearColor(0.13, 0.14, 0.17, 1);
  gl.clear(gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT);

  const h = view.hello;
  if (view.frame && h && view.frame.length >= 16 * h.joints) {
    if (view.dirty) {
      gl.bindTexture(gl.TEXTURE_2D, jointTex);
      gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA32F, 4, h.joints, 0, gl.RGBA, gl.FLOAT, view.frame);
      view.dirty = false;
    }
    if ($("follow").checked && h.follow >= 0) {
      const m = view.frame.subarray(16 * h.follow, 16 * h.follow + 16);
      const p = point(m, h.bind.slice(16 * h.follow + 12, 16 * h.follow + 15));
      const snap = !view.followed; // the first frame: there at once
      for (let k = 0; k < 3; k++) view.target[k] += (p[k] - view.target[k]) * (snap ? 1 : 0.1);
      view.followed = true;
    }
  }
  const t = view.target;
  const eye = [t[0] + view.dist * Math.cos(view.pitch) * Math.sin(view.yaw), t[1] + view.dist * Math.sin(view.pitch),
    t[2] + view.dist * Math.cos(view.pitch) * Math.cos(view.yaw)];
  const vp = mul4(perspective(0.8, canvas.width / Math.max(1, canvas.height), 0.05, 100), lookAt(eye, t));
  drawLines(vp, GRID, [0.3, 0.32, 0.38, 1]);
  if (!view.frame || !h || view.frame.length < 16 * h.joints) return;
  if ($("mesh").checked) {
    gl.useProgram(meshProg.p);
    gl.uniformMatrix4fv(meshProg.u.u_viewProj, false, vp);
    gl.activeTexture(gl.TEXTURE0);
    gl.bindTexture(gl.TEXTURE_2D, jointTex);
    gl.uniform1i(meshProg.u.u_joints, 0);
    for (const m of view.meshes) {
      const skin = h.skins[m.skin];
      if (!skin) continue;
      gl.uniform1i(meshProg.u.u_base, skin.offset);
      gl.uniform4fv(meshProg.u.u_color, m.color);
      gl.bindVertexArray(m.vao);
      gl.drawElements(gl.TRIANGLES, m.count, gl.UNSIGNED_INT, 0);
    }
    gl.bindVertexArray(null);
  }
  overlays(vp);
}

// ---- camera: drag to orbit, wheel to zoom ----

canvas.addEventListener("pointerdown", (e) => { canvas.setPointerCapture(e.pointerId); });
canvas.addEventListener("pointermove", (e) => {
  if (!canvas.hasPointerCapture(e.pointerId)) return;
  view.yaw -= e.movementX * 0.01;
  view.pitch = Math.max(-1.4, Math.min(1.4, view.pitch + e.movementY * 0.01));
});
canvas.addEventListener("wheel", (e) => {
  e.preventDefault();
  view.dist = Math.max(0.3, Math.min(30, view.dist * Math.exp(e.deltaY * 0.001)));
}, { passive: false });

// ---- the stream and the controls ----

function send(msg) {
  if (view.ws && view.ws.readyState === WebSocket.OPEN) view.ws.send(JSON.stringify(msg));
}

function connect() {
  const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws");
  ws.binaryType = "arraybuffer";
  view.ws = ws;
  ws.onopen = setStatus;
  ws.onclose = () => {
    if (statusEl.dataset.state !== "error") statusEl.dataset.state = "disconnected";
    setStatus();
    setTimeout(connect, 1000); // a restarted server is picked up again
  };
  ws.onmessage = (ev) => {
    if (ev.data instanceof ArrayBuffer) {
      view.frame = new Float32Array(ev.data); // little-endian, as every browser's host is
      view.frames++;
      view.dirty = true;
      statusEl.dataset.frames = String(view.frames);
      return;
    }
    const msg = JSON.parse(ev.data);
    switch (msg.type) {
      case "hello": hello(msg); break;
      case "state": showError(""); showState(msg); break;
      case "spring":
        showError("");
        view.hello.springs[msg.index].settings = msg.settings;
        if (Number($("spring").value) === msg.index) showSpring();
        break;
      case "error": showError(msg.error); break;
    }
  };
}

function hello(h) {
  view.hello = h;
  $("file").textContent = h.file + " (" + h.version + ", " + h.joints + " joints)";
  const path = $("path");
  path.replaceChildren(...h.paths.map((p) => new Option(p, p)));
  const sel = $("spring");
  const keep = sel.value;
  sel.replaceChildren(...h.springs.map((s, i) => new Option(s.name + " (" + s.joints.length + " joints)", String(i))));
  if (keep !== "" && Number(keep) < h.springs.length) sel.value = keep;
  showSpring();
  showState(h.state);
  if (h.warnings && h.warnings.length) console.warn("the file's warnings:\n" + h.warnings.join("\n"));
}

function showState(s) {
  view.state = s;
  $("play").textContent = s.playing ? "Pause" : "Play";
  $("speed").value = String(s.timeScale);
  $("speedv").textContent = s.timeScale.toFixed(2);
  $("path").value = s.path;
  $("springsPause").textContent = s.springsPaused ? "Resume springs" : "Pause springs";
  setStatus();
}

const TUNED = ["stiffness", "dragForce", "gravityPower", "hitRadius"];

function showSpring() {
  const s = view.hello && view.hello.springs[Number($("spring").value)];
  $("joints").textContent = s ? s.joints.join(", ") : "no springs";
  for (const k of TUNED) {
    const el = $(k);
    el.disabled = !s;
    if (!s) continue;
    el.value = String(s.settings[k]);
    el.nextElementSibling.textContent = Number(s.settings[k]).toFixed(3);
  }
}

$("play").onclick = () => send({ cmd: view.state && view.state.playing ? "pause" : "play" });
$("step").onclick = () => send({ cmd: "step" });
$("speed").oninput = (e) => send({ cmd: "speed", value: Number(e.target.value) });
$("path").onchange = (e) => send({ cmd: "path", name: e.target.value });
$("spring").onchange = showSpring;
for (const k of TUNED) {
  $(k).oninput = (e) => {
    e.target.nextElementSibling.textContent = Number(e.target.value).toFixed(3);
    send({ cmd: "tune", spring: Number($("spring").value), [k]: Number(e.target.value) });
  };
}
$("springsPause").onclick = () => send({ cmd: "springs", action: view.state && view.state.springsPaused ? "resume" : "pause" });
$("springsReset").onclick = () => send({ cmd: "springs", action: "reset" });

// The page's address can set the camera and the overlays, for recording
// and tests: ?dist=4&yaw=0.6&pitch=0.25&follow=0&bones=1&colliders=1&mesh=0&ui=0
function fromAddress() {
  const q = new URLSearchParams(location.search);
  for (const k of ["dist", "yaw", "pitch"]) if (q.has(k) && isFinite(Number(q.get(k)))) view[k] = Number(q.get(k));
  for (const k of ["follow", "bones", "colliders", "mesh"]) if (q.has(k)) $(k).checked = q.get(k) !== "0";
  // ui=0 hides the panel and the status line (a recording shows the scene
  // alone); the status keeps counting for tests.
  if (q.get("ui") === "0") {
    $("panel").style.display = "none";
    statusEl.style.visibility = "hidden";
  }
}

async function start() {
  fromAddress();
  try {
    initGL();
    const res = await fetch("model.glb");
    if (!res.ok) throw new Error("model.glb: " + res.status + " " + res.statusText);
    uploadMeshes(parseGLB(await res.arrayBuffer()));
  } catch (err) {
    statusEl.dataset.state = "error";
    showError(String(err && err.message ? err.message : err));
  }
  setStatus();
  connect();
  requestAnimationFrame(render);
}

start();
