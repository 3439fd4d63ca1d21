#version 100
precision mediump float;
varying vec4 a;
void main() {
  vec4 r = vec4(exp2(a.x), exp2(a.x), log2(abs(a.z)), -a.w) + a.y * a;
  r.x += 1.0 / a.y;
  gl_FragColor = r;
}
