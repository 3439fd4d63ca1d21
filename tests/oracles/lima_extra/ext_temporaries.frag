#version 100
precision mediump float;
varying vec4 a; varying vec4 b;
void main() { vec4 t = b + a * a; vec4 r = a * t + t; gl_FragColor = r + a * a; }
