pub mod ingress_crd_schema;
