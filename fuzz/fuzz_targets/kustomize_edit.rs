#![no_main]
// See gateway_migrate::fuzz::kustomize_edit for what this target checks.
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    gateway_migrate::fuzz::kustomize_edit(data);
});
