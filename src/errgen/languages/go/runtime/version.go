package errgenruntime

import "runtime/debug"

// ModuleVersion is this module's version in the running program's build, as `go version -m`
// shows it: the version the program's go.mod requires (the release's git tag). No file of the
// module names its version, so a release changes none of them. ok is false when the build
// recorded none (a program inside this module, a go.work workspace, `go run` of a file).
func ModuleVersion() (version string, ok bool) {
	info, found := debug.ReadBuildInfo()
	if !found {
		return "", false
	}
	for _, dep := range info.Deps {
		if dep.Path == modulePath {
			version = dep.Version
			if dep.Replace != nil && dep.Replace.Version != "" {
				version = dep.Replace.Version
			}
			return version, known(version)
		}
	}
	if info.Main.Path == modulePath {
		return info.Main.Version, known(info.Main.Version)
	}
	return "", false
}

// known: the build recorded a real version, not none or "(devel)".
func known(version string) bool { return version != "" && version != "(devel)" }
