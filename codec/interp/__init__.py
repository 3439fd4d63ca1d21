"""A SPIR-V interpreter: runs an entry point of a Shader module with logical addressing,
one invocation at a time, with every value exact for its type."""
