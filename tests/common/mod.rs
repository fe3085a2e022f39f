pub mod cel_rules;
pub mod crd_schema;
