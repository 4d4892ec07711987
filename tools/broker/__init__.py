"""A local Eclipse Mosquitto for online play: `make broker`, the tests and the benchmarks."""
