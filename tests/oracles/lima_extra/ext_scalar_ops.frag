#version 100
precision mediump float;
varying vec4 a;
void main() {
  vec4 r = vec4(ceil(a.x), fract(a.y), clamp(a.z, 0.0, 1.0), max(a.w, 0.0));
  float m = min(max(a.x, a.y), a.z);
  r += vec4(m, a.x != a.y ? 1.0 : 0.0, a.z >= a.w ? 1.0 : 0.0, 1.0);
  r.x += m * a.w * 4.0;
  gl_FragColor = r;
}
