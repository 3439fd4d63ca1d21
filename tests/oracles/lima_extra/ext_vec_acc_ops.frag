#version 100
precision mediump float;
varying vec4 a;
void main() {
  vec4 r = fract(a) * ceil(a) + vec4(a.x + a.y + a.z + a.w);
  r += clamp(a.wzyx, 0.0, 1.0);
  r += max(max(a, floor(-abs(a))), 0.0);
  gl_FragColor = r;
}
