use super::*;
use crate::scan::scan_texts as scan_of;

const INGRESS: &str = "apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata:\n  name: web\nspec:\n  rules:\n  - host: a.example.com\n";

fn summary(units: &Units) -> Vec<(String, &'static str, Vec<String>)> {
    units
        .units
        .iter()
        .map(|u| {
            (
                u.name().to_string(),
                u.kind().as_str(),
                u.deployed_by
                    .iter()
                    .map(|d| format!("{} -> {}", d.label(), d.destination()))
                    .collect(),
            )
        })
        .collect()
}

#[test]
fn kustomize_roots_gitops_paths_and_manual_directories_are_units() {
    let scan = scan_of(&[
        ("base/kustomization.yaml", "resources:\n- ingress.yaml\n"),
        ("base/ingress.yaml", INGRESS),
        (
            "overlays/dev/kustomization.yaml",
            "resources:\n- ../../base\n",
        ),
        ("plain/ingress.yaml", INGRESS),
        ("loose/ingress.yaml", INGRESS),
        (
            "clusters/prod/apps.yaml",
            "apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata:\n  name: base\n  namespace: flux-system\nspec:\n  path: ./base\n  targetNamespace: web\n  dependsOn:\n  - name: infra\n---\napiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata:\n  name: plain\n  annotations:\n    argocd.argoproj.io/sync-wave: \"2\"\nspec:\n  source:\n    path: plain/\n  destination:\n    name: prod-eu\n    namespace: shop\n",
        ),
    ]);
    let (units, notes) = units(&scan);
    assert!(notes.is_empty(), "{notes:?}");
    assert_eq!(
        summary(&units),
        vec![
            (
                "base".into(),
                "kustomize",
                vec!["Kustomization flux-system/base -> (in-cluster)/web".into()]
            ),
            // The GitOps objects themselves are applied by hand (the bootstrap).
            ("clusters/prod".into(), "manual", vec![]),
            ("loose".into(), "manual", vec![]),
            ("overlays/dev".into(), "kustomize", vec![]),
            (
                "plain".into(),
                "directory",
                vec!["Application plain -> prod-eu/shop".into()]
            ),
        ]
    );
    // Flux's targetNamespace overrides every namespace of what it deploys.
    assert_eq!(
        units.destination_namespaces().get("base/ingress.yaml"),
        None,
        "base/ingress.yaml is also deployed by overlays/dev, which names no namespace"
    );
    let base = &units.units[0].deployed_by[0];
    assert_eq!(base.depends_on, vec!["flux-system/infra".to_string()]);
    assert_eq!(units.units[4].deployed_by[0].wave, Some(2));
    // The base's Ingress is deployed by the base itself and by the overlay that includes it.
    let of: Vec<&str> = units
        .of_file("base/ingress.yaml")
        .map(|u| u.name())
        .collect();
    assert_eq!(of, vec!["base", "overlays/dev"]);
    let of: Vec<&str> = units
        .of_file("loose/ingress.yaml")
        .map(|u| u.name())
        .collect();
    assert_eq!(of, vec!["loose"]);
}

#[test]
fn flux_paths_recurse_and_argo_directories_do_not_unless_asked() {
    // Flux generates a kustomization listing every manifest below a path without one
    // (fluxcd/pkg kustomize/kustomize_generator.go); Argo CD reads only the directory itself
    // unless `directory.recurse` is set (reposerver/repository/repository.go).
    let scan = scan_of(&[
        ("flux/a/ingress.yaml", INGRESS),
        ("argo/a/ingress.yaml", INGRESS),
        ("argo/top.yaml", INGRESS),
        (
            "deploy.yaml",
            "apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata:\n  name: f\nspec:\n  path: ./flux\n---\napiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata:\n  name: a\nspec:\n  source:\n    path: argo\n",
        ),
    ]);
    let (units, _) = units(&scan);
    let of = |f: &str| -> Vec<String> { units.of_file(f).map(|u| u.name().to_string()).collect() };
    assert_eq!(of("flux/a/ingress.yaml"), vec!["flux"]);
    assert_eq!(of("argo/top.yaml"), vec!["argo"]);
    assert_eq!(of("argo/a/ingress.yaml"), vec!["argo/a"]);
    assert_eq!(
        units
            .units
            .iter()
            .find(|u| u.dir == "argo/a")
            .map(|u| u.kind()),
        Some(UnitKind::Manual)
    );
}

#[test]
fn applicationsets_expand_list_and_git_directory_generators() {
    let scan = scan_of(&[
        ("apps/shop/ingress.yaml", INGRESS),
        ("apps/blog/ingress.yaml", INGRESS),
        ("apps/legacy/ingress.yaml", INGRESS),
        ("envs/eu/ingress.yaml", INGRESS),
        (
            "sets.yaml",
            "apiVersion: argoproj.io/v1alpha1\nkind: ApplicationSet\nmetadata:\n  name: apps\nspec:\n  generators:\n  - git:\n      repoURL: https://example.com/r.git\n      directories:\n      - path: apps/*\n      - path: apps/legacy\n        exclude: true\n  template:\n    metadata:\n      name: '{{path.basename}}'\n    spec:\n      source:\n        path: '{{path}}'\n      destination:\n        server: https://kubernetes.default.svc\n        namespace: '{{ path.basename }}'\n---\napiVersion: argoproj.io/v1alpha1\nkind: ApplicationSet\nmetadata:\n  name: envs\nspec:\n  goTemplate: true\n  generators:\n  - list:\n      elements:\n      - env: eu\n        cluster: prod-eu\n  template:\n    spec:\n      source:\n        path: 'envs/{{.env}}'\n      destination:\n        name: '{{.cluster}}'\n---\napiVersion: argoproj.io/v1alpha1\nkind: ApplicationSet\nmetadata:\n  name: fleet\nspec:\n  generators:\n  - clusters: {}\n  template:\n    spec:\n      source:\n        path: 'fleet/{{name}}'\n",
        ),
    ]);
    let (units, notes) = units(&scan);
    let rows = summary(&units);
    assert_eq!(
        rows,
        vec![
            (".".into(), "manual", vec![]),
            (
                "apps/blog".into(),
                "directory",
                vec![
                    "ApplicationSet apps (apps/blog) -> https://kubernetes.default.svc/blog".into()
                ]
            ),
            ("apps/legacy".into(), "manual", vec![]),
            (
                "apps/shop".into(),
                "directory",
                vec![
                    "ApplicationSet apps (apps/shop) -> https://kubernetes.default.svc/shop".into()
                ]
            ),
            (
                "envs/eu".into(),
                "directory",
                vec!["ApplicationSet envs (prod-eu,eu) -> prod-eu/(as written)".into()]
            ),
        ]
    );
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert_eq!(notes[0].code, Code::DeployGeneratorUnknown);
    assert!(notes[0].message.contains("fleet"), "{}", notes[0].message);
}

#[test]
fn globs_follow_path_segments_and_cost_at_most_pattern_times_path() {
    use applicationset::glob_match;
    assert!(glob_match("apps/*", "apps/shop"));
    assert!(!glob_match("apps/*", "apps/shop/overlay"));
    // Go's path.Match has no `**`: each star stays within one segment.
    assert!(!glob_match("apps/**", "apps/shop/overlay"));
    assert!(glob_match("apps/*/*", "apps/shop/overlay"));
    assert!(glob_match("apps/[a-c]*", "apps/blog"));
    assert!(!glob_match("apps/[!a-c]*", "apps/blog"));
    assert!(glob_match("a?c", "abc"));
    // path.Match("other/*/", "other/o") is false: the trailing slash must match.
    assert!(!glob_match("other/*/", "other/o"));
    // An adversarial pattern against a long path stays cheap (memoised).
    let pattern = "*a".repeat(40);
    let path = "a".repeat(3000) + "b";
    assert!(!glob_match(&pattern, &path));
}

#[test]
fn units_on_named_different_clusters_do_not_share_one() {
    let unit = |cluster: Option<&str>| Unit {
        dir: "x".into(),
        kustomization: None,
        deployed_by: vec![Deployment {
            file: "f".into(),
            line: 1,
            kind: "Application".into(),
            name: "x".into(),
            cluster: cluster.map(str::to_string),
            namespace: None,
            depends_on: vec![],
            wave: None,
            include: None,
            exclude: None,
            options: Default::default(),
        }],
        recurse: false,
    };
    assert!(!Units::may_share_cluster(
        &unit(Some("eu")),
        &unit(Some("us"))
    ));
    assert!(Units::may_share_cluster(
        &unit(Some("eu")),
        &unit(Some("eu"))
    ));
    assert!(Units::may_share_cluster(&unit(None), &unit(None)));
}

#[test]
fn git_directories_pick_what_argo_cd_picks() {
    // Facts from Argo CD's applicationset/generators/git_test.go
    // (TestGitGenerateParamsFromDirectories): the repository's directories, the globs, and
    // the applications generated.
    let dirs = |list: &[&str]| -> BTreeSet<String> { list.iter().map(|s| s.to_string()).collect() };
    let globs = |list: &[(&str, bool)]| -> Vec<(String, bool)> {
        list.iter().map(|(g, e)| (g.to_string(), *e)).collect()
    };
    type Case<'a> = (&'a [&'a str], &'a [(&'a str, bool)], &'a [&'a str]);
    let cases: &[Case] = &[
        (
            &["app1", "app2", "app_3", "p1", "p1/app4"],
            &[("*", false)],
            &["app1", "app2", "app_3", "p1"],
        ),
        (
            &[
                "app1",
                "p1",
                "p1/app2",
                "p1/p2",
                "p1/p2/app3",
                "p1/p2/p3",
                "p1/p2/p3/app4",
            ],
            &[("p1/*", false), ("p1/*/*", false)],
            &["p1/app2", "p1/p2", "p1/p2/app3", "p1/p2/p3"],
        ),
        (
            &["app1", "app2", "p1", "p1/app4", "p2", "p2/app3"],
            &[("p1/*", true), ("*", false), ("*/*", false)],
            &["app1", "app2", "p1", "p2", "p2/app3"],
        ),
        (
            &["app1", "app2", "p1", "p1/app4", "p2", "p2/app3"],
            &[("*", false), ("*/*", false), ("p1/*", true)],
            &["app1", "app2", "p1", "p2", "p2/app3"],
        ),
        (
            &["app", ".hidden", ".hidden/app"],
            &[("*", false), ("*/*", false)],
            &["app"],
        ),
    ];
    for (repo, patterns, want) in cases {
        let got = applicationset::directories(&globs(patterns), &dirs(repo));
        assert_eq!(
            got,
            want.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
            "{patterns:?}"
        );
    }
}

#[test]
fn idpbuilder_cnoe_repositories_are_directories_next_to_the_application() {
    // idpbuilder: `cnoe://DIR` is DIR beside the Application's file (getCNOEAbsPath).
    let scan = scan_of(&[
        ("stacks/keycloak/manifests/ingress.yaml", INGRESS),
        (
            "stacks/keycloak.yaml",
            "apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata:\n  name: keycloak\nspec:\n  source:\n    repoURL: cnoe://keycloak/manifests\n    path: \".\"\n  destination:\n    namespace: keycloak\n",
        ),
    ]);
    let (units, notes) = units(&scan);
    assert!(notes.is_empty(), "{notes:?}");
    assert_eq!(
        summary(&units),
        vec![
            ("stacks".into(), "manual", vec![]),
            (
                "stacks/keycloak/manifests".into(),
                "directory",
                vec!["Application keycloak -> (in-cluster)/keycloak".into()]
            )
        ]
    );
    // Argo CD's destination namespace fills in a missing namespace only.
    assert_eq!(
        units
            .destination_namespaces()
            .get("stacks/keycloak/manifests/ingress.yaml"),
        Some(&("keycloak".to_string(), false))
    );
}

#[test]
fn builds_below_a_flux_path_are_deployed_by_the_flux_object() {
    // fluxcd/pkg kustomize_generator.go scanManifests: a sub-directory with a kustomization
    // becomes a resource of the generated kustomization, and the walk does not enter it.
    let scan = scan_of(&[
        (
            "apps/backend/kustomization.yaml",
            "resources:\n- ingress.yaml\n",
        ),
        ("apps/backend/ingress.yaml", INGRESS),
        ("apps/backend/unlisted.yaml", INGRESS),
        ("apps/top.yaml", INGRESS),
        (
            "clusters/apps.yaml",
            "apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata:\n  name: apps\n  namespace: flux-system\nspec:\n  path: ./apps\n  targetNamespace: web\n",
        ),
    ]);
    let (units, _) = units(&scan);
    assert_eq!(
        summary(&units),
        vec![
            (
                "apps".into(),
                "directory",
                vec!["Kustomization flux-system/apps -> (in-cluster)/web".into()]
            ),
            ("apps/backend".into(), "manual", vec![]),
            (
                "apps/backend".into(),
                "kustomize",
                vec!["Kustomization flux-system/apps -> (in-cluster)/web".into()]
            ),
            ("clusters".into(), "manual", vec![]),
        ]
    );
    let of = |f: &str| -> Vec<String> {
        units
            .of_file(f)
            .map(|u| format!("{} {}", u.kind().as_str(), u.name()))
            .collect()
    };
    assert_eq!(of("apps/top.yaml"), vec!["directory apps"]);
    assert_eq!(
        of("apps/backend/ingress.yaml"),
        vec!["kustomize apps/backend"]
    );
    // A file its kustomization does not list is deployed by nothing.
    assert_eq!(
        of("apps/backend/unlisted.yaml"),
        vec!["manual apps/backend"]
    );
}

#[test]
fn flux_paths_never_leave_the_repository() {
    // kustomize-controller: securejoin.SecureJoin(root, spec.path).
    assert_eq!(clamped("../../apps/flux-a"), "apps/flux-a");
    assert_eq!(clamped("/apps/flux-a"), "apps/flux-a");
    assert_eq!(clamped("apps/../base"), "base");
    assert_eq!(clamped(".."), "");
}

/// Each world's files, and the files of the objects it owns.
fn world_files(
    scan: &crate::scan::Scan,
    worlds: &worlds::Worlds,
) -> Vec<(Vec<String>, Vec<String>)> {
    let files = |positions: &[usize]| {
        let mut files: Vec<String> = positions
            .iter()
            .map(|&p| scan.index.objects[p].source.file.clone())
            .collect();
        files.dedup();
        files
    };
    worlds
        .worlds
        .iter()
        .map(|w| (files(&w.positions), files(&w.owned)))
        .collect()
}

fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

const APP: &str = "apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata:\n  name: NAME\nspec:\n  source:\n    path: NAME\n  destination:\n    server: SERVER\n";

#[test]
fn same_named_objects_nothing_deploys_together_are_separate_worlds() {
    // Two example directories, each applied on its own, define Ingress default/web; a third
    // directory without a collision is in both worlds.
    let scan = scan_of(&[
        ("examples/a/ingress.yaml", INGRESS),
        ("examples/b/ingress.yaml", INGRESS),
        (
            "shared/svc.yaml",
            "apiVersion: v1\nkind: Service\nmetadata:\n  name: web\nspec:\n  ports:\n  - port: 80\n",
        ),
    ]);
    let (units, _) = units(&scan);
    let w = worlds::worlds(&scan.index, &units);
    // Each example with the Service of its namespace as context; the Service's own result
    // comes from the world of the remaining objects.
    assert_eq!(
        world_files(&scan, &w),
        vec![
            (
                strings(&["examples/a/ingress.yaml", "shared/svc.yaml"]),
                strings(&["examples/a/ingress.yaml"])
            ),
            (
                strings(&["examples/b/ingress.yaml", "shared/svc.yaml"]),
                strings(&["examples/b/ingress.yaml"])
            ),
            (strings(&["shared/svc.yaml"]), strings(&["shared/svc.yaml"])),
        ]
    );
}

#[test]
fn same_named_objects_one_cluster_receives_are_one_world() {
    // Two Argo CD Applications deploying to the same cluster: the objects really collide
    // there (one overwrites the other), which the translation must report, so one world.
    let app = |name: &str, server: &str| APP.replace("NAME", name).replace("SERVER", server);
    let same = scan_of(&[
        ("a/ingress.yaml", INGRESS),
        ("b/ingress.yaml", INGRESS),
        ("apps/a.yaml", &app("a", "https://kubernetes.default.svc")),
        ("apps/b.yaml", &app("b", "https://kubernetes.default.svc")),
    ]);
    let (found, _) = units(&same);
    assert!(worlds::worlds(&same.index, &found).is_single());
    // One file in two units is not an alternative to itself.
    let one_file = scan_of(&[
        ("base/ingress.yaml", INGRESS),
        ("base/kustomization.yaml", "resources:\n- ingress.yaml\n"),
        ("dev/kustomization.yaml", "resources:\n- ../base\n"),
        ("prod/kustomization.yaml", "resources:\n- ../base\n"),
    ]);
    let (found, _) = units(&one_file);
    assert!(worlds::worlds(&one_file.index, &found).is_single());
    // On two named clusters the Applications never meet.
    let apart = scan_of(&[
        ("a/ingress.yaml", INGRESS),
        ("b/ingress.yaml", INGRESS),
        ("apps/a.yaml", &app("a", "https://eu.example.com")),
        ("apps/b.yaml", &app("b", "https://us.example.com")),
    ]);
    let (found, _) = units(&apart);
    let w = worlds::worlds(&apart.index, &found);
    let owned: Vec<Vec<String>> = world_files(&apart, &w)
        .into_iter()
        .map(|(_, o)| o)
        .collect();
    assert_eq!(
        owned,
        vec![strings(&["a/ingress.yaml"]), strings(&["b/ingress.yaml"])]
    );
}

#[test]
fn git_generators_under_a_prefix_or_a_cnoe_repository() {
    // Argo CD applicationset/generators/git.go generateParamsFromApps: `pathParamPrefix`
    // puts every path parameter under `<prefix>.`; idpbuilder replaces a `cnoe://DIR`
    // generator's repository by DIR (next to the ApplicationSet's file), so its globs and
    // the paths it gives are relative to DIR.
    let scan = scan_of(&[
        ("stacks/apps/shop/ingress.yaml", INGRESS),
        ("stacks/apps/blog/ingress.yaml", INGRESS),
        ("other/apps/wiki/ingress.yaml", INGRESS),
        (
            "stacks/set.yaml",
            "apiVersion: argoproj.io/v1alpha1\nkind: ApplicationSet\nmetadata:\n  name: local\nspec:\n  generators:\n  - git:\n      repoURL: cnoe://apps\n      pathParamPrefix: app\n      directories:\n      - path: '*'\n  template:\n    metadata:\n      name: '{{app.path.basename}}'\n    spec:\n      source:\n        repoURL: cnoe://apps\n        path: '{{app.path}}'\n      destination:\n        namespace: '{{app.path.basename}}'\n",
        ),
    ]);
    let (units, notes) = units(&scan);
    assert!(notes.is_empty(), "{notes:?}");
    let rows = summary(&units);
    assert!(
        rows.contains(&(
            "stacks/apps/shop".into(),
            "directory",
            vec!["ApplicationSet local (shop) -> (in-cluster)/shop".into()]
        )),
        "{rows:?}"
    );
    assert!(
        rows.iter()
            .any(|(dir, kind, _)| dir == "stacks/apps/blog" && *kind == "directory")
    );
    // Outside the cnoe directory nothing matches.
    assert!(
        rows.contains(&("other/apps/wiki".into(), "manual", vec![])),
        "{rows:?}"
    );
}

#[test]
fn files_a_deployers_filter_leaves_out_are_not_deployed_and_are_a_world_apart() {
    // Argo CD directory.exclude and the skip marker (reposerver getPotentiallyValidManifestFile);
    // Flux .sourceignore (fluxcd/pkg sourceignore).
    let other = INGRESS.replace("name: web", "name: old");
    let sample = INGRESS.replace("name: web", "name: sample");
    let marked = format!(
        "# +argocd:skip-file-rendering\n{}",
        INGRESS.replace("name: web", "name: draft")
    );
    let mut scan = scan_of(&[
        ("web/ingress.yaml", INGRESS),
        ("web/old/ingress.yaml", other.as_str()),
        ("web/draft.yaml", marked.as_str()),
        ("flux/ingress.yaml", INGRESS),
        ("flux/examples/ingress.yaml", sample.as_str()),
        (
            "apps.yaml",
            "apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata:\n  name: web\nspec:\n  source:\n    path: web\n    directory:\n      recurse: true\n      exclude: 'old/*'\n  destination:\n    namespace: web\n---\napiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata:\n  name: flux\n  namespace: flux-system\nspec:\n  path: ./flux\n",
        ),
    ]);
    scan.source_ignores = vec![("flux/.sourceignore".into(), "examples/\n".into())];
    let (found, _) = units(&scan);
    let deployed = |f: &str| found.of_file(f).any(|u| !u.deployed_by.is_empty());
    assert!(deployed("web/ingress.yaml"));
    assert!(!deployed("web/old/ingress.yaml"));
    assert!(!deployed("web/draft.yaml"));
    assert!(deployed("flux/ingress.yaml"));
    assert!(!deployed("flux/examples/ingress.yaml"));
    assert_eq!(
        found
            .excluded
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>(),
        vec![
            "flux/examples/ingress.yaml",
            "web/draft.yaml",
            "web/old/ingress.yaml"
        ]
    );
    // Each left-out unit is a world with the deployed Ingress sharing its host as context;
    // the deployed files are a world without the left-out ones, and own their results.
    let w = worlds::worlds(&scan.index, &found);
    let files = world_files(&scan, &w);
    assert_eq!(files.len(), 4, "{files:?}");
    assert_eq!(
        files[3],
        (
            strings(&["flux/ingress.yaml", "web/ingress.yaml"]),
            strings(&["flux/ingress.yaml", "web/ingress.yaml"])
        )
    );
    for (positions, owned) in &files[..3] {
        assert_eq!(owned.len(), 1, "{files:?}");
        assert!(positions.len() >= owned.len());
    }
}

#[test]
fn a_hydrated_application_deploys_its_dry_source() {
    // argo-cd types.go GetSources: with sourceHydrator the sync source is rendered from
    // drySource.path (controller/hydrator).
    let scan = scan_of(&[
        ("apps/web/ingress.yaml", INGRESS),
        (
            "argocd/web.yaml",
            "apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata:\n  name: web\nspec:\n  sourceHydrator:\n    drySource:\n      repoURL: https://example.com/r.git\n      targetRevision: main\n      path: apps/web\n    syncSource:\n      targetBranch: environments/prod\n      path: web\n  destination:\n    namespace: web\n",
        ),
    ]);
    let (found, _) = units(&scan);
    assert!(summary(&found).contains(&(
        "apps/web".into(),
        "directory",
        vec!["Application web -> (in-cluster)/web".into()]
    )));
}

#[test]
fn the_controllers_own_cluster_has_one_name() {
    // argo-cd util/db/cluster.go: `in-cluster` is https://kubernetes.default.svc; a Flux
    // Kustomization without kubeConfig applies to the cluster it runs in, which may be the
    // same one.
    let app = |name: &str, dest: &str| {
        format!(
            "apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata:\n  name: {name}\nspec:\n  source:\n    path: {name}\n  destination:\n    {dest}\n"
        )
    };
    let scan = scan_of(&[
        ("a/ingress.yaml", INGRESS),
        ("b/ingress.yaml", INGRESS),
        ("c/ingress.yaml", INGRESS),
        ("apps/a.yaml", &app("a", "name: in-cluster")),
        (
            "apps/b.yaml",
            &app("b", "server: https://kubernetes.default.svc/"),
        ),
        (
            "apps/c.yaml",
            "apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata:\n  name: c\n  namespace: flux-system\nspec:\n  path: ./c\n",
        ),
    ]);
    let (found, _) = units(&scan);
    // The three Ingresses collide in one cluster: one world.
    assert!(worlds::worlds(&scan.index, &found).is_single());
    // Flux kubeConfig from a ConfigMap names another cluster.
    let remote = scan_of(&[
        ("a/ingress.yaml", INGRESS),
        ("b/ingress.yaml", INGRESS),
        (
            "apps.yaml",
            "apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata:\n  name: a\n  namespace: flux-system\nspec:\n  path: ./a\n---\napiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata:\n  name: b\n  namespace: flux-system\nspec:\n  path: ./b\n  kubeConfig:\n    configMapRef:\n      name: west\n",
        ),
    ]);
    let (found, _) = units(&remote);
    assert!(!worlds::worlds(&remote.index, &found).is_single());
}

#[test]
fn same_named_gitops_objects_in_apart_files_deploy_alternatives() {
    // Two stacks each define Application `web` (only one can exist in a cluster), deploying
    // different directories that both hold Ingress default/web: alternatives, not a
    // collision.
    let app = |path: &str| {
        format!(
            "apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata:\n  name: web\nspec:\n  source:\n    path: {path}\n  destination:\n    server: https://kubernetes.default.svc\n"
        )
    };
    let scan = scan_of(&[
        ("stack-a/web/ingress.yaml", INGRESS),
        ("stack-b/web/ingress.yaml", INGRESS),
        ("stack-a/apps/web.yaml", &app("stack-a/web")),
        ("stack-b/apps/web.yaml", &app("stack-b/web")),
    ]);
    let (found, _) = units(&scan);
    let w = worlds::worlds(&scan.index, &found);
    let owned: Vec<Vec<String>> = world_files(&scan, &w).into_iter().map(|(_, o)| o).collect();
    assert_eq!(
        owned,
        vec![
            strings(&["stack-a/web/ingress.yaml"]),
            strings(&["stack-b/web/ingress.yaml"])
        ]
    );
}

#[test]
fn flux_generates_a_kustomization_of_yaml_files_only() {
    // fluxcd/pkg kustomize_generator.go scanManifests: `.yaml` and `.yml` only.
    let json = "{\"apiVersion\": \"networking.k8s.io/v1\", \"kind\": \"Ingress\", \"metadata\": {\"name\": \"legacy\"}, \"spec\": {\"rules\": [{\"host\": \"a.example.com\"}]}}";
    let scan = scan_of(&[
        ("apps/web/ingress.yaml", INGRESS),
        ("apps/web/legacy.json", json),
        (
            "flux.yaml",
            "apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata:\n  name: web\n  namespace: flux-system\nspec:\n  path: ./apps/web\n",
        ),
    ]);
    let (found, _) = units(&scan);
    let deployed = |f: &str| found.of_file(f).any(|u| !u.deployed_by.is_empty());
    assert!(deployed("apps/web/ingress.yaml"));
    assert!(
        scan.index
            .objects
            .iter()
            .any(|o| o.source.file == "apps/web/legacy.json")
    );
    assert!(found.of_file("apps/web/legacy.json").next().is_some());
    assert!(!deployed("apps/web/legacy.json"));
}

#[test]
fn applications_on_clusters_they_never_share_are_worlds_apart() {
    // Differently named Ingresses for one host on east and west: nothing in common but the
    // host, and they never meet (ingress-nginx's contest for the host is per cluster).
    let other = INGRESS.replace("name: web", "name: web-west");
    let app = |name: &str, cluster: &str| {
        format!(
            "apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata:\n  name: {name}\nspec:\n  source:\n    path: {name}\n  destination:\n    name: {cluster}\n"
        )
    };
    let scan = scan_of(&[
        ("east/ingress.yaml", INGRESS),
        ("west/ingress.yaml", other.as_str()),
        ("apps/east.yaml", &app("east", "east")),
        ("apps/west.yaml", &app("west", "west")),
    ]);
    let (found, _) = units(&scan);
    let w = worlds::worlds(&scan.index, &found);
    let owned: Vec<Vec<String>> = world_files(&scan, &w).into_iter().map(|(_, o)| o).collect();
    assert!(
        owned.contains(&strings(&["east/ingress.yaml"])),
        "{owned:?}"
    );
    assert!(
        owned.contains(&strings(&["west/ingress.yaml"])),
        "{owned:?}"
    );
    // And neither is the other's context.
    for (positions, _) in world_files(&scan, &w) {
        assert!(
            !(positions.contains(&"east/ingress.yaml".to_string())
                && positions.contains(&"west/ingress.yaml".to_string()))
        );
    }
}

#[test]
fn argo_reads_kustomizations_below_a_recursing_directory_as_plain_files() {
    // argo-cd repository.go getPotentiallyValidManifests: recurse walks every file; the
    // kustomization below is read as a manifest, never built. Flux lists it as a build.
    let scan = scan_of(&[
        ("apps/web/ingress.yaml", INGRESS),
        (
            "apps/web/legacy/kustomization.yaml",
            "namePrefix: p-\nresources:\n- ingress.yaml\n",
        ),
        ("apps/web/legacy/ingress.yaml", INGRESS),
        (
            "app.yaml",
            "apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata:\n  name: web\nspec:\n  source:\n    path: apps/web\n    directory:\n      recurse: true\n  destination:\n    namespace: web\n",
        ),
    ]);
    let (found, _) = units(&scan);
    let rows = summary(&found);
    assert!(
        !rows.iter().any(|(dir, _, _)| dir == "apps/web/legacy"),
        "{rows:?}"
    );
    assert!(
        found
            .of_file("apps/web/legacy/ingress.yaml")
            .any(|u| u.dir == "apps/web" && !u.deployed_by.is_empty())
    );
}
