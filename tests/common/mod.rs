pub mod crd_schema;
