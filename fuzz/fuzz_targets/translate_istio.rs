#![no_main]
// The pipeline on one stream (gateway_migrate::fuzz::translate). The target is the same
// function as its sibling; its corpus (seeded from istio manifests by fuzz/seed.sh) steers it
// to the istio translator.
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    gateway_migrate::fuzz::translate(data);
});
