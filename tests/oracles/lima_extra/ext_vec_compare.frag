#version 100
precision mediump float;
varying vec4 a; varying vec4 b;
void main() { gl_FragColor = vec4(notEqual(a, b)) + vec4(greaterThanEqual(a, b)) * 2.0 + min(a, b) + vec4(equal(a, a)) + vec4(greaterThan(a, b)) * b * 0.5; }
