package directives

func badCall() {}

func sameLine() {
	badCall() //locklint:ignore callbad the caller holds no lock here
}

func lineAbove() {
	//locklint:ignore callbad the caller holds no lock here
	badCall()
}

func twoLinesAbove() {
	//locklint:ignore callbad too far away to count

	badCall() // want `call of badCall`
}

func spaceTolerated() {
	// locklint:ignore callbad people type a space
	badCall()
}

func list() {
	//locklint:ignore other,callbad both are fine here
	badCall()
}

func nolintStyle() {
	//locklint:ignore callbad // the reason may follow slashes, as with nolint
	badCall()
}

func slashesOnly() {
	// want +1 `needs a reason`
	//locklint:ignore callbad //
	badCall() // want `call of badCall`
}

func otherAnalyzer() {
	//locklint:ignore other only silences the other analyzer
	badCall() // want `call of badCall`
}

func noReason() {
	// want +1 `//locklint:ignore callbad needs a reason`
	//locklint:ignore callbad
	badCall() // want `call of badCall`
}

func noName() {
	// want +1 `needs an analyzer name and a reason`
	//locklint:ignore
	badCall() // want `call of badCall`
}

func unknown() {
	// want +1 `unknown analyzer callbadd \(known: callbad, other\)`
	//locklint:ignore callbadd typo in the name
	badCall() // want `call of badCall`
}

func notADirective() {
	//locklint:ignored callbad not our directive
	badCall() // want `call of badCall`
	/* locklint:ignore callbad block comments do not count */
	badCall() // want `call of badCall`
}
