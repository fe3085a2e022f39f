#![no_main]
// The pipeline on one stream (gateway_migrate::fuzz::translate). The target is the same
// function as its sibling; its corpus (seeded from ingress manifests by fuzz/seed.sh) steers it
// to the ingress translator.
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    gateway_migrate::fuzz::translate(data);
});
