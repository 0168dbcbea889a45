// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {EnhancedAccessControl} from "./EnhancedAccessControl.sol";
import {RegistryRoles} from "./PermissionedRegistry.sol";
import {IRegistry, IPermissionedRegistry} from "./RegistryV2Interfaces.sol";

interface IERC20Payment {
    function transferFrom(address from, address to, uint256 amount) external returns (bool);
}

/// What a registrar asks its price oracle (contracts-v2's IRentPriceOracle).
interface IRentPriceOracle {
    function isValid(string calldata label) external view returns (bool);
    function isPaymentToken(address paymentToken) external view returns (bool);
    function rentPrice(string calldata label, address owner, uint64 duration, address paymentToken)
        external
        view
        returns (uint256 base, uint256 premium);
}

/// The `.eth` registrar of ENSv2 (contracts-v2's ETHRegistrar), whichever build: everything but the events that tell
/// a registration's and a renewal's price, which the two builds below lay out differently. Kept: commit/reveal (a
/// commitment is usable from MIN_COMMITMENT_AGE to MAX_COMMITMENT_AGE after it was made, and only once), a minimum
/// duration, payment in an ERC-20 the oracle accepts (base + premium to the beneficiary; a renewal pays the base only
/// and anyone may pay it), a referrer carried in the events, registration in the `.eth` registry with the
/// registrant's roles, `CommitmentMade`. The deployer holds every root role (to change the oracle). Left out: HCA
/// senders; the later build's grace period, its separate renewer and `Ownable`.
abstract contract ETHRegistrarBase is EnhancedAccessControl {
    uint256 internal constant ROLE_SET_ORACLE = 1 << 0;

    /// What a registration cost (the arguments its `NameRegistered` carries beside the token id and label).
    struct Registered {
        address owner;
        IRegistry subregistry;
        address resolver;
        uint64 duration;
        address paymentToken;
        bytes32 referrer;
        uint256 base;
        uint256 premium;
    }

    event CommitmentMade(bytes32 commitment);

    error NameIsAvailable(string label);
    error NameNotAvailable(string label);
    error DurationTooShort(uint64 duration, uint64 minDuration);
    error MaxCommitmentAgeTooLow();
    error UnexpiredCommitmentExists(bytes32 commitment);
    error CommitmentTooNew(bytes32 commitment, uint64 validFrom, uint64 blockTimestamp);
    error CommitmentTooOld(bytes32 commitment, uint64 validTo, uint64 blockTimestamp);
    error InvalidOwner();
    error PaymentFailed(address paymentToken);

    IPermissionedRegistry public immutable REGISTRY;
    address public immutable BENEFICIARY;
    uint64 public immutable MIN_COMMITMENT_AGE;
    uint64 public immutable MAX_COMMITMENT_AGE;
    uint64 public immutable MIN_REGISTER_DURATION;
    IRentPriceOracle public rentPriceOracle;
    mapping(bytes32 commitment => uint64 madeAt) public commitmentAt;

    constructor(
        IPermissionedRegistry registry,
        address beneficiary,
        uint64 minCommitmentAge,
        uint64 maxCommitmentAge,
        uint64 minRegisterDuration,
        IRentPriceOracle oracle
    ) {
        if (maxCommitmentAge <= minCommitmentAge) revert MaxCommitmentAgeTooLow();
        _grantRoles(ROOT_RESOURCE, ALL_ROLES, msg.sender, false);
        REGISTRY = registry;
        BENEFICIARY = beneficiary;
        MIN_COMMITMENT_AGE = minCommitmentAge;
        MAX_COMMITMENT_AGE = maxCommitmentAge;
        MIN_REGISTER_DURATION = minRegisterDuration;
        rentPriceOracle = oracle;
        _emitOracleChanged(oracle);
    }

    function setRentPriceOracle(IRentPriceOracle oracle) external onlyRootRoles(ROLE_SET_ORACLE) {
        rentPriceOracle = oracle;
        _emitOracleChanged(oracle);
    }

    function makeCommitment(
        string calldata label,
        address owner,
        bytes32 secret,
        IRegistry subregistry,
        address resolver,
        uint64 duration,
        bytes32 referrer
    ) public pure returns (bytes32) {
        return keccak256(abi.encode(label, owner, secret, subregistry, resolver, duration, referrer));
    }

    function commit(bytes32 commitment) external {
        if (commitmentAt[commitment] + MAX_COMMITMENT_AGE > block.timestamp) revert UnexpiredCommitmentExists(commitment);
        commitmentAt[commitment] = uint64(block.timestamp);
        emit CommitmentMade(commitment);
    }

    function register(
        string calldata label,
        address owner,
        bytes32 secret,
        IRegistry subregistry,
        address resolver,
        uint64 duration,
        address paymentToken,
        bytes32 referrer
    ) external returns (uint256 tokenId) {
        if (duration < MIN_REGISTER_DURATION) revert DurationTooShort(duration, MIN_REGISTER_DURATION);
        if (owner == address(0)) revert InvalidOwner();
        if (!isAvailable(label)) revert NameNotAvailable(label);
        _useCommitment(makeCommitment(label, owner, secret, subregistry, resolver, duration, referrer));
        (uint256 base, uint256 premium) = rentPrice(label, owner, duration, paymentToken);
        _collect(paymentToken, base + premium);
        tokenId = REGISTRY.register(
            label, owner, subregistry, resolver, RegistryRoles.REGISTRATION, uint64(block.timestamp) + duration
        );
        _emitRegistered(
            tokenId, label, Registered(owner, subregistry, resolver, duration, paymentToken, referrer, base, premium)
        );
    }

    function renew(string calldata label, uint64 duration, address paymentToken, bytes32 referrer) external {
        IPermissionedRegistry.State memory state = REGISTRY.getState(uint256(keccak256(bytes(label))));
        if (state.status == IPermissionedRegistry.Status.AVAILABLE) revert NameIsAvailable(label);
        uint64 newExpiry = state.expiry + duration;
        (uint256 base,) = rentPrice(label, state.latestOwner, duration, paymentToken);
        _collect(paymentToken, base);
        REGISTRY.renew(state.tokenId, newExpiry);
        _emitRenewed(state.tokenId, label, duration, newExpiry, paymentToken, referrer, base);
    }

    function isAvailable(string calldata label) public view returns (bool) {
        return REGISTRY.getStatus(uint256(keccak256(bytes(label)))) == IPermissionedRegistry.Status.AVAILABLE;
    }

    function rentPrice(string calldata label, address owner, uint64 duration, address paymentToken)
        public
        view
        returns (uint256 base, uint256 premium)
    {
        return rentPriceOracle.rentPrice(label, owner, duration, paymentToken);
    }

    function _useCommitment(bytes32 commitment) private {
        uint64 madeAt = commitmentAt[commitment];
        uint64 now_ = uint64(block.timestamp);
        if (now_ < madeAt + MIN_COMMITMENT_AGE) revert CommitmentTooNew(commitment, madeAt + MIN_COMMITMENT_AGE, now_);
        if (now_ >= madeAt + MAX_COMMITMENT_AGE) revert CommitmentTooOld(commitment, madeAt + MAX_COMMITMENT_AGE, now_);
        delete commitmentAt[commitment];
    }

    function _collect(address paymentToken, uint256 amount) private {
        (bool ok, bytes memory answer) =
            paymentToken.call(abi.encodeCall(IERC20Payment.transferFrom, (msg.sender, BENEFICIARY, amount)));
        if (!ok || (answer.length > 0 && !abi.decode(answer, (bool)))) revert PaymentFailed(paymentToken);
    }

    function _emitRegistered(uint256 tokenId, string calldata label, Registered memory r) internal virtual;

    function _emitRenewed(
        uint256 tokenId,
        string calldata label,
        uint64 duration,
        uint64 newExpiry,
        address paymentToken,
        bytes32 referrer,
        uint256 base
    ) internal virtual;

    function _emitOracleChanged(IRentPriceOracle oracle) internal virtual;
}

/// Stands for contracts-v2's ETHRegistrar as its public source has it (main, 5677359d): `NameRegistered` and
/// `NameRenewed` with the referrer unindexed (in the data), `RentPriceOracleChanged`.
contract ETHRegistrar is ETHRegistrarBase {
    event NameRegistered(
        uint256 indexed tokenId,
        string label,
        address owner,
        IRegistry subregistry,
        address resolver,
        uint64 duration,
        address paymentToken,
        bytes32 referrer,
        uint256 base,
        uint256 premium
    );
    event NameRenewed(
        uint256 indexed tokenId,
        string label,
        uint64 duration,
        uint64 newExpiry,
        address paymentToken,
        bytes32 referrer,
        uint256 base
    );
    event RentPriceOracleChanged(IRentPriceOracle oracle);

    constructor(
        IPermissionedRegistry registry,
        address beneficiary,
        uint64 minCommitmentAge,
        uint64 maxCommitmentAge,
        uint64 minRegisterDuration,
        IRentPriceOracle oracle
    ) ETHRegistrarBase(registry, beneficiary, minCommitmentAge, maxCommitmentAge, minRegisterDuration, oracle) {}

    function _emitRegistered(uint256 tokenId, string calldata label, Registered memory r) internal override {
        emit NameRegistered(
            tokenId, label, r.owner, r.subregistry, r.resolver, r.duration, r.paymentToken, r.referrer, r.base, r.premium
        );
    }

    function _emitRenewed(
        uint256 tokenId,
        string calldata label,
        uint64 duration,
        uint64 newExpiry,
        address paymentToken,
        bytes32 referrer,
        uint256 base
    ) internal override {
        emit NameRenewed(tokenId, label, duration, newExpiry, paymentToken, referrer, base);
    }

    function _emitOracleChanged(IRentPriceOracle oracle) internal override {
        emit RentPriceOracleChanged(oracle);
    }
}

/// Stands for the later contracts-v2 ETHRegistrar that ENS deployed for sepolia-v2, as the npm package
/// ensnode/datasources 1.17.0 describes it and contracts-v2's "Refactor ETHRegistrar" (#286, 61805355; on its post-audit branches, not on main)
/// declares it: `NameRegistered` and `NameRenewed` with `bytes32 indexed referrer` (a topic, not data), the renewal's
/// price named `amount`, and `RentPriceOracleUpdated`. The same topic hashes as `ETHRegistrar`'s, other layouts.
contract ETHRegistrarIndexedReferrer is ETHRegistrarBase {
    event NameRegistered(
        uint256 indexed tokenId,
        string label,
        address owner,
        IRegistry subregistry,
        address resolver,
        uint64 duration,
        address paymentToken,
        bytes32 indexed referrer,
        uint256 base,
        uint256 premium
    );
    event NameRenewed(
        uint256 indexed tokenId,
        string label,
        uint64 duration,
        uint64 newExpiry,
        address paymentToken,
        bytes32 indexed referrer,
        uint256 amount
    );
    event RentPriceOracleUpdated(IRentPriceOracle oracle);

    constructor(
        IPermissionedRegistry registry,
        address beneficiary,
        uint64 minCommitmentAge,
        uint64 maxCommitmentAge,
        uint64 minRegisterDuration,
        IRentPriceOracle oracle
    ) ETHRegistrarBase(registry, beneficiary, minCommitmentAge, maxCommitmentAge, minRegisterDuration, oracle) {}

    function _emitRegistered(uint256 tokenId, string calldata label, Registered memory r) internal override {
        emit NameRegistered(
            tokenId, label, r.owner, r.subregistry, r.resolver, r.duration, r.paymentToken, r.referrer, r.base, r.premium
        );
    }

    function _emitRenewed(
        uint256 tokenId,
        string calldata label,
        uint64 duration,
        uint64 newExpiry,
        address paymentToken,
        bytes32 referrer,
        uint256 amount
    ) internal override {
        emit NameRenewed(tokenId, label, duration, newExpiry, paymentToken, referrer, amount);
    }

    function _emitOracleChanged(IRentPriceOracle oracle) internal override {
        emit RentPriceOracleUpdated(oracle);
    }
}

/// Stands for contracts-v2's StandardRentPriceOracle: prices in a 12-decimal unit, converted into each accepted
/// ERC-20 by its ratio. Kept: a yearly base rate by label length in code points (too short a label is invalid), a
/// premium after a name expires that starts high and halves every `premiumHalvingPeriod` until `premiumPeriod` ends,
/// renewals priced without premium. Left out: multi-year discounts and the smooth halving curve.
contract StandardRentPriceOracle is IRentPriceOracle {
    struct PaymentRatio {
        address token;
        uint128 numer;
        uint128 denom;
    }

    uint256 internal constant SECONDS_PER_YEAR = 31_557_600;

    error NotValid(string label);
    error PaymentTokenNotSupported(address paymentToken);

    IPermissionedRegistry public immutable REGISTRY;
    /// Price per year by label length in code points; index 0 is one code point, the last rate covers longer labels.
    uint256[] public baseRatePerYear;
    uint256 public immutable premiumPriceInitial;
    uint64 public immutable premiumHalvingPeriod;
    uint64 public immutable premiumPeriod;
    mapping(address token => PaymentRatio) internal _ratios;

    constructor(
        IPermissionedRegistry registry,
        uint256[] memory ratesPerYear,
        uint256 premiumInitial,
        uint64 halvingPeriod,
        uint64 period,
        PaymentRatio[] memory ratios
    ) {
        REGISTRY = registry;
        baseRatePerYear = ratesPerYear;
        premiumPriceInitial = premiumInitial;
        premiumHalvingPeriod = halvingPeriod;
        premiumPeriod = period;
        for (uint256 i; i < ratios.length; ++i) _ratios[ratios[i].token] = ratios[i];
    }

    function isPaymentToken(address paymentToken) public view returns (bool) {
        return _ratios[paymentToken].denom != 0;
    }

    function isValid(string calldata label) public view returns (bool) {
        return _rateOf(label) != 0;
    }

    function rentPrice(string calldata label, address, uint64 duration, address paymentToken)
        external
        view
        returns (uint256 base, uint256 premium)
    {
        uint256 rate = _rateOf(label);
        if (rate == 0) revert NotValid(label);
        PaymentRatio memory ratio = _ratios[paymentToken];
        if (ratio.denom == 0) revert PaymentTokenNotSupported(paymentToken);
        base = _inToken(rate * duration / SECONDS_PER_YEAR, ratio);
        premium = _inToken(_premium(label), ratio);
    }

    /// The premium of a label that expired `elapsed` seconds ago; zero for a label never registered or renewed.
    function _premium(string calldata label) private view returns (uint256) {
        IPermissionedRegistry.State memory state = REGISTRY.getState(uint256(keccak256(bytes(label))));
        if (state.status != IPermissionedRegistry.Status.AVAILABLE || state.expiry == 0) return 0;
        uint256 elapsed = block.timestamp - state.expiry;
        if (elapsed >= premiumPeriod) return 0;
        uint256 halvings = elapsed / premiumHalvingPeriod;
        return halvings >= 256 ? 0 : premiumPriceInitial >> halvings;
    }

    function _rateOf(string calldata label) private view returns (uint256) {
        uint256 length = _codePoints(bytes(label));
        if (length == 0) return 0;
        uint256 n = baseRatePerYear.length;
        return length > n ? baseRatePerYear[n - 1] : baseRatePerYear[length - 1];
    }

    /// UTF-8 code points: every byte but continuation bytes (10xxxxxx) starts one.
    function _codePoints(bytes calldata s) private pure returns (uint256 count) {
        for (uint256 i; i < s.length; ++i) {
            if (uint8(s[i]) & 0xc0 != 0x80) ++count;
        }
    }

    function _inToken(uint256 price, PaymentRatio memory ratio) private pure returns (uint256) {
        return (price * ratio.numer + ratio.denom - 1) / ratio.denom;
    }
}

/// Stands for contracts-v2's BatchRegistrar, which premigration uses: its owner reserves many `.eth` labels at once
/// (no owner, the given resolver and subregistry) or extends a reservation to a later expiry; registered labels are
/// left alone.
contract BatchRegistrar {
    IPermissionedRegistry public immutable ETH_REGISTRY;
    address public immutable owner;

    error OnlyOwner();
    error LengthMismatch();

    constructor(IPermissionedRegistry ethRegistry, address owner_) {
        ETH_REGISTRY = ethRegistry;
        owner = owner_;
    }

    function batchRegister(IRegistry registry, address resolver, string[] calldata labels, uint64[] calldata expiries)
        external
    {
        if (msg.sender != owner) revert OnlyOwner();
        if (labels.length != expiries.length) revert LengthMismatch();
        for (uint256 i; i < labels.length; ++i) {
            IPermissionedRegistry.State memory state = ETH_REGISTRY.getState(uint256(keccak256(bytes(labels[i]))));
            if (state.status == IPermissionedRegistry.Status.AVAILABLE) {
                ETH_REGISTRY.register(labels[i], address(0), registry, resolver, 0, expiries[i]);
            } else if (state.status == IPermissionedRegistry.Status.RESERVED && expiries[i] > state.expiry) {
                ETH_REGISTRY.renew(state.tokenId, expiries[i]);
            }
        }
    }
}
