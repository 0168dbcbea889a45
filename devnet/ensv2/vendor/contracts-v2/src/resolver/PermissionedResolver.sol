// SPDX-License-Identifier: MIT
pragma solidity ^0.8.13;

import {IMulticallable} from "@ens/contracts/resolvers/IMulticallable.sol";
import {IABIResolver} from "@ens/contracts/resolvers/profiles/IABIResolver.sol";
import {IAddressResolver} from "@ens/contracts/resolvers/profiles/IAddressResolver.sol";
import {IAddrResolver} from "@ens/contracts/resolvers/profiles/IAddrResolver.sol";
import {IContentHashResolver} from "@ens/contracts/resolvers/profiles/IContentHashResolver.sol";
import {IDataResolver} from "@ens/contracts/resolvers/profiles/IDataResolver.sol";
import {IExtendedResolver} from "@ens/contracts/resolvers/profiles/IExtendedResolver.sol";
import {IHasAddressResolver} from "@ens/contracts/resolvers/profiles/IHasAddressResolver.sol";
import {IInterfaceResolver} from "@ens/contracts/resolvers/profiles/IInterfaceResolver.sol";
import {INameResolver} from "@ens/contracts/resolvers/profiles/INameResolver.sol";
import {IPubkeyResolver} from "@ens/contracts/resolvers/profiles/IPubkeyResolver.sol";
import {ITextResolver} from "@ens/contracts/resolvers/profiles/ITextResolver.sol";
import {IVersionableResolver} from "@ens/contracts/resolvers/profiles/IVersionableResolver.sol";
import {ResolverFeatures} from "@ens/contracts/resolvers/ResolverFeatures.sol";
import {ENSIP19, COIN_TYPE_ETH, COIN_TYPE_DEFAULT} from "@ens/contracts/utils/ENSIP19.sol";
import {IERC7996} from "@ens/contracts/utils/IERC7996.sol";
import {NameCoder} from "@ens/contracts/utils/NameCoder.sol";
import {IProxyAuthorization} from "@ensdomains/verifiable-factory/IProxyAuthorization.sol";
import {UUPSUpgradeable} from "@openzeppelin/contracts-upgradeable/proxy/utils/UUPSUpgradeable.sol";
import {ContextUpgradeable} from "@openzeppelin/contracts-upgradeable/utils/ContextUpgradeable.sol";
import {Context} from "@openzeppelin/contracts/utils/Context.sol";
import {ERC165Checker} from "@openzeppelin/contracts/utils/introspection/ERC165Checker.sol";
import {IERC165} from "@openzeppelin/contracts/utils/introspection/IERC165.sol";

import {EnhancedAccessControl} from "../access-control/EnhancedAccessControl.sol";
import {IEnhancedAccessControl} from "../access-control/interfaces/IEnhancedAccessControl.sol";
import {InvalidOwner} from "../CommonErrors.sol";
import {HCAContext} from "../hca/HCAContext.sol";
import {HCAContextUpgradeable} from "../hca/HCAContextUpgradeable.sol";
import {HCAEquivalence} from "../hca/HCAEquivalence.sol";
import {IHCAFactoryBasic} from "../hca/interfaces/IHCAFactoryBasic.sol";

import {IPermissionedResolver} from "./interfaces/IPermissionedResolver.sol";
import {PermissionedResolverLib} from "./libraries/PermissionedResolverLib.sol";
import {ResolverProfileRewriterLib} from "./libraries/ResolverProfileRewriterLib.sol";

/// @notice A resolver that supports many profiles, multiple names, internal aliasing, and fine-grained permissions.
///
/// Supported profiles and standards:
///
/// - ENSIP-1 / EIP-137: addr()
/// - ENSIP-3 / EIP-181: name()
/// - ENSIP-4 / EIP-205: ABI()
/// - EIP-619: pubkey()
/// - ENSIP-5 / EIP-634: text(key)
/// - ENSIP-7 / EIP-1577: contenthash()
/// - ENSIP-8: interfaceImplementer()
/// - ENSIP-9 / EIP-2304: addr(coinType)
/// - ENSIP-19: addr(default)
/// - ENSIP-24: data(key)
/// - IERC7996: supportsFeature()
/// - IVersionableResolver: version()
/// - IHasAddrResolver: hasAddr()
///
/// Internal Aliasing:
///
/// * Resolved names find the longest match and rewrite the suffix.
/// * Successful matches recursively check for additional aliasing.
/// * `bytes32 node` in calldata is updated accordingly.
/// * Cycles of length 1 apply once.
/// * Cycles of length 2+ result in OOG.
///
/// eg. `setAlias("a.eth", "b.eth")`
/// * `getAlias("a.eth") => "b.eth"`
/// * `getAlias("[sub].a.eth") => "[sub].b.eth"`
/// * `getAlias("[x.y].a.eth") => "[x.y].b.eth"`
/// * `getAlias("abc.eth") => ""`
///
/// Fine-grained Permissions:
///
/// * `setText(key)` can be permissioned with `authorizeTextRoles()`
///    - caller requires `ROLE_SET_TEXT_ADMIN` on `resource(<namehash>, 0)`
///    - `ROLE_SET_TEXT` is authorized on `resource(<namehash>, <part>)`
/// * `setData(key)` can be permissioned with `authorizeDataRoles()`
///    - caller requires `ROLE_SET_DATA_ADMIN` on `resource(<namehash>, 0)`
///    - `ROLE_SET_DATA` is authorized on `resource(<namehash>, <part>)`
/// * `setAddr(coinType)` can be permissioned with `authorizeAddrRoles()`
///    - caller requires `ROLE_SET_ADDR_ADMIN` on `resource(<namehash>, 0)`
///    - `ROLE_SET_ADDR` is authorized on `resource(<namehash>, <part>)`
///
/// Setters with `node` check (4) EAC resources:
///                                           Parts
///        Resources      +-----------------------------+------------------------------+
///                       |           Any (*)           |         Specific (1)         |
///        +--------------+-----------------------------+------------------------------+
///        |      Any (*) |       resource(0, 0)        |      resource(0, <part>)     |
///  Names |--------------+-----------------------------+------------------------------+
///        | Specific (1) |   resource(<namehash>, 0)   | resource(<namehash>, <part>) |
///        +--------------+-----------------------------+------------------------------+
///
contract PermissionedResolver is
    IPermissionedResolver,
    HCAContextUpgradeable,
    UUPSUpgradeable,
    EnhancedAccessControl,
    IERC7996,
    IMulticallable,
    IABIResolver,
    IAddrResolver,
    IAddressResolver,
    IContentHashResolver,
    IDataResolver,
    IHasAddressResolver,
    IInterfaceResolver,
    INameResolver,
    IPubkeyResolver,
    ITextResolver,
    IVersionableResolver,
    IProxyAuthorization
{
    ////////////////////////////////////////////////////////////////////////
    // Types
    ////////////////////////////////////////////////////////////////////////

    struct Record {
        bytes contenthash;
        bytes32[2] pubkey;
        string name;
        mapping(uint256 coinType => bytes addressBytes) addresses;
        mapping(string key => string value) texts;
        mapping(string key => bytes value) datas;
        mapping(uint256 contentType => bytes value) abis;
        mapping(bytes4 interfaceId => address implementer) interfaces;
    }

    ////////////////////////////////////////////////////////////////////////
    // Storage
    ////////////////////////////////////////////////////////////////////////

    /// @dev Aliases for names.
    mapping(bytes32 node => bytes name) internal _aliases;
    /// @dev Versions for nodes.
    mapping(bytes32 node => uint64 version) internal _versions;
    /// @dev Records for nodes.
    mapping(bytes32 node => mapping(uint64 version => Record)) internal _records;

    ////////////////////////////////////////////////////////////////////////
    // Events
    ////////////////////////////////////////////////////////////////////////

    /// @notice Associate an EAC resource with a name.
    /// @param resource The EAC resource.
    /// @param name The name.
    event NamedResource(uint256 indexed resource, bytes name);

    /// @notice Associate an EAC resource with a name and specific `text(key)` record.
    /// @param resource The EAC resource.
    /// @param name The name.
    /// @param keyHash The hash of the key.
    /// @param key The key.
    event NamedTextResource(
        uint256 indexed resource,
        bytes name,
        bytes32 indexed keyHash,
        string key
    );

    /// @notice Associate an EAC resource with a name and specific `data(key)` record.
    /// @param resource The EAC resource.
    /// @param name The name.
    /// @param keyHash The hash of the key.
    /// @param key The key.
    event NamedDataResource(
        uint256 indexed resource,
        bytes name,
        bytes32 indexed keyHash,
        string key
    );

    /// @notice Associate an EAC resource with a name and specific `addr(coinType)` record.
    /// @param resource The EAC resource.
    /// @param name The name.
    /// @param coinType The coin type.
    event NamedAddrResource(uint256 indexed resource, bytes name, uint256 indexed coinType);

    ////////////////////////////////////////////////////////////////////////
    // Modifiers
    ////////////////////////////////////////////////////////////////////////

    modifier onlyPartRoles(bytes32 node, bytes32 part, uint256 roleBitmap) {
        address sender = _msgSender();
        if (
            part == bytes32(0) ||
            (!hasRoles(PermissionedResolverLib.resource(node, part), roleBitmap, sender) &&
                !hasRoles(PermissionedResolverLib.resource(0, part), roleBitmap, sender))
        ) {
            _checkRoles(PermissionedResolverLib.resource(node, 0), roleBitmap, sender); // reverts using "widest" resource
        }
        _;
    }

    ////////////////////////////////////////////////////////////////////////
    // Initialization
    ////////////////////////////////////////////////////////////////////////

    /// @notice Creates the PermissionedResolver implementation.
    /// @param hcaFactory The HCA factory.
    constructor(IHCAFactoryBasic hcaFactory) HCAEquivalence(hcaFactory) {
        _disableInitializers();
    }

    /// @inheritdoc EnhancedAccessControl
    function supportsInterface(
        bytes4 interfaceId
    ) public view virtual override(IERC165, EnhancedAccessControl) returns (bool) {
        return
            type(IPermissionedResolver).interfaceId == interfaceId ||
            type(IExtendedResolver).interfaceId == interfaceId ||
            type(IERC7996).interfaceId == interfaceId ||
            type(IMulticallable).interfaceId == interfaceId ||
            type(IABIResolver).interfaceId == interfaceId ||
            type(IAddrResolver).interfaceId == interfaceId ||
            type(IAddressResolver).interfaceId == interfaceId ||
            type(IContentHashResolver).interfaceId == interfaceId ||
            type(IDataResolver).interfaceId == interfaceId ||
            type(IHasAddressResolver).interfaceId == interfaceId ||
            type(IInterfaceResolver).interfaceId == interfaceId ||
            type(INameResolver).interfaceId == interfaceId ||
            type(IPubkeyResolver).interfaceId == interfaceId ||
            type(ITextResolver).interfaceId == interfaceId ||
            type(IVersionableResolver).interfaceId == interfaceId ||
            type(UUPSUpgradeable).interfaceId == interfaceId ||
            type(IProxyAuthorization).interfaceId == interfaceId ||
            super.supportsInterface(interfaceId);
    }

    /// @inheritdoc IERC7996
    function supportsFeature(bytes4 feature) external pure returns (bool) {
        return ResolverFeatures.RESOLVE_MULTICALL == feature;
    }

    /// @inheritdoc IPermissionedResolver
    function initialize(address admin, uint256 roleBitmap) external initializer {
        if (admin == address(0)) {
            revert InvalidOwner();
        }
        __UUPSUpgradeable_init();
        _grantRoles(ROOT_RESOURCE, roleBitmap, admin, false);
    }

    ////////////////////////////////////////////////////////////////////////
    // Implementation
    ////////////////////////////////////////////////////////////////////////

    /// @notice Clear all records for `node`.
    /// @param node The node to update.
    function clearRecords(
        bytes32 node
    ) external onlyPartRoles(node, 0, PermissionedResolverLib.ROLE_CLEAR) {
        uint64 version = ++_versions[node];
        emit VersionChanged(node, version);
    }

    /// @inheritdoc IPermissionedResolver
    function setAlias(
        bytes calldata fromName,
        bytes calldata toName
    ) external onlyRootRoles(PermissionedResolverLib.ROLE_SET_ALIAS) {
        _aliases[NameCoder.namehash(fromName, 0)] = toName;
        emit AliasChanged(fromName, toName, fromName, toName);
    }

    /// @notice Authorize `roleBitmap` permissions to `account` for `toName`.
    ///         Use `NameCoder.encode("")` for any name, which is equivalent to `grantRootRoles()`.
    /// @param toName The name to authorize roles for.
    /// @param roleBitmap The roles to authorize.
    /// @param account The account to authorize roles to.
    /// @param grant If `true`, grants, otherwise, revokes.
    /// @return success Whether the roles were updated.
    function authorizeNameRoles(
        bytes calldata toName,
        uint256 roleBitmap,
        address account,
        bool grant
    ) external returns (bool) {
        bytes32 node = NameCoder.namehash(toName, 0);
        uint256 resource = PermissionedResolverLib.resource(node, 0);
        if (grant) {
            _checkCanGrantRoles(resource, roleBitmap, _msgSender());
            if (resource != ROOT_RESOURCE && roleCount(resource) == 0) {
                emit NamedResource(resource, toName);
            }
            return _grantRoles(resource, roleBitmap, account, true);
        } else {
            _checkCanRevokeRoles(resource, roleBitmap, _msgSender());
            return _revokeRoles(resource, roleBitmap, account, true);
        }
    }

    /// @notice Authorize `setText(key)` permission to `account` for `toName`.
    ///         Use `NameCoder.encode("")` for any name.
    /// @param toName The name to authorize roles for.
    /// @param key The text key to authorize roles for.
    /// @param account The account to authorize roles to.
    /// @param grant If `true`, grants, otherwise, revokes.
    /// @return `true` if the roles were updated.
    function authorizeTextRoles(
        bytes calldata toName,
        string calldata key,
        address account,
        bool grant
    ) external returns (bool) {
        bytes32 node = NameCoder.namehash(toName, 0);
        uint256 roleBit = PermissionedResolverLib.ROLE_SET_TEXT;
        uint256 nodeResource = PermissionedResolverLib.resource(node, bytes32(0));
        uint256 partResource = PermissionedResolverLib.resource(
            node,
            PermissionedResolverLib.partHash(key)
        );
        if (grant) {
            _checkCanGrantRoles(nodeResource, roleBit, _msgSender());
            if (roleCount(partResource) == 0) {
                emit NamedTextResource(partResource, toName, keccak256(bytes(key)), key);
            }
            return _grantRoles(partResource, roleBit, account, true);
        } else {
            _checkCanRevokeRoles(nodeResource, roleBit, _msgSender());
            return _revokeRoles(partResource, roleBit, account, true);
        }
    }

    /// @notice Authorize `setData(key)` permission to `account` for `toName`.
    ///         Use `NameCoder.encode("")` for any name.
    /// @param toName The name to authorize roles for.
    /// @param key The data key to authorize roles for.
    /// @param account The account to authorize roles to.
    /// @param grant If `true`, grants, otherwise, revokes.
    /// @return `true` if the roles were updated.
    function authorizeDataRoles(
        bytes calldata toName,
        string calldata key,
        address account,
        bool grant
    ) external returns (bool) {
        bytes32 node = NameCoder.namehash(toName, 0);
        uint256 roleBit = PermissionedResolverLib.ROLE_SET_DATA;
        uint256 nodeResource = PermissionedResolverLib.resource(node, bytes32(0));
        uint256 partResource = PermissionedResolverLib.resource(
            node,
            PermissionedResolverLib.partHash(key)
        );
        if (grant) {
            _checkCanGrantRoles(nodeResource, roleBit, _msgSender());
            if (roleCount(partResource) == 0) {
                emit NamedDataResource(partResource, toName, keccak256(bytes(key)), key);
            }
            return _grantRoles(partResource, roleBit, account, true);
        } else {
            _checkCanRevokeRoles(nodeResource, roleBit, _msgSender());
            return _revokeRoles(partResource, roleBit, account, true);
        }
    }

    /// @notice Authorize `setAddr(coinType)` permission to `account` for `toName`.
    ///         Use `NameCoder.encode("")` for any name.
    /// @param toName The name to authorize roles for.
    /// @param coinType The coin type to authorize roles for.
    /// @param account The account to authorize roles to.
    /// @param grant If `true`, grants, otherwise, revokes.
    /// @return updated `true` if the roles were updated.
    function authorizeAddrRoles(
        bytes calldata toName,
        uint256 coinType,
        address account,
        bool grant
    ) external returns (bool updated) {
        bytes32 node = NameCoder.namehash(toName, 0);
        uint256 roleBit = PermissionedResolverLib.ROLE_SET_ADDR;
        uint256 nodeResource = PermissionedResolverLib.resource(node, bytes32(0));
        uint256 partResource = PermissionedResolverLib.resource(
            node,
            PermissionedResolverLib.partHash(coinType)
        );
        if (grant) {
            _checkCanGrantRoles(nodeResource, roleBit, _msgSender());
            if (roleCount(partResource) == 0) {
                emit NamedAddrResource(partResource, toName, coinType);
            }
            return _grantRoles(partResource, roleBit, account, true);
        } else {
            _checkCanRevokeRoles(nodeResource, roleBit, _msgSender());
            return _revokeRoles(partResource, roleBit, account, true);
        }
    }

    /// @notice Set ABI data of the associated ENS node.
    /// @param node The node to update.
    /// @param contentType The content type of the ABI.
    /// @param value The ABI data.
    function setABI(
        bytes32 node,
        uint256 contentType,
        bytes calldata value
    ) external onlyPartRoles(node, 0, PermissionedResolverLib.ROLE_SET_ABI) {
        if (!_isPowerOf2(contentType)) {
            revert InvalidContentType(contentType);
        }
        _record(node).abis[contentType] = value;
        emit ABIChanged(node, contentType);
    }

    /// @notice Set Ethereum mainnet address of the associated ENS node.
    ///         `address(0)` is stored as `new bytes(20)`.
    /// @param node The node to update.
    /// @param addr_ The mainnet address.
    function setAddr(bytes32 node, address addr_) external {
        setAddr(node, COIN_TYPE_ETH, abi.encodePacked(addr_));
    }

    /// @notice Set the contenthash of the associated ENS node.
    /// @param node The node to update.
    /// @param hash The contenthash to set.
    function setContenthash(
        bytes32 node,
        bytes calldata hash
    ) external onlyPartRoles(node, 0, PermissionedResolverLib.ROLE_SET_CONTENTHASH) {
        _record(node).contenthash = hash;
        emit ContenthashChanged(node, hash);
    }

    /// @notice Set the data for `key` of the associated ENS node.
    /// @param node The node to update.
    /// @param key The data key.
    /// @param value The data value.
    function setData(
        bytes32 node,
        string calldata key,
        bytes calldata value
    )
        external
        onlyPartRoles(
            node,
            PermissionedResolverLib.partHash(key),
            PermissionedResolverLib.ROLE_SET_DATA
        )
    {
        _record(node).datas[key] = value;
        emit DataChanged(node, key, key, value);
    }

    /// @notice Set an interface of the associated ENS node.
    /// @param node The node to update.
    /// @param interfaceId The EIP-165 interface ID.
    /// @param implementer The address of the contract that implements this interface for this node.
    function setInterface(
        bytes32 node,
        bytes4 interfaceId,
        address implementer
    ) external onlyPartRoles(node, 0, PermissionedResolverLib.ROLE_SET_INTERFACE) {
        _record(node).interfaces[interfaceId] = implementer;
        emit InterfaceChanged(node, interfaceId, implementer);
    }

    /// @notice Set the SECP256k1 public key associated with an ENS node.
    /// @param node The node to update.
    /// @param x The x coordinate of the public key.
    /// @param y The y coordinate of the public key.
    function setPubkey(
        bytes32 node,
        bytes32 x,
        bytes32 y
    ) external onlyPartRoles(node, 0, PermissionedResolverLib.ROLE_SET_PUBKEY) {
        _record(node).pubkey = [x, y];
        emit PubkeyChanged(node, x, y);
    }

    /// @notice Set the name of the associated ENS node.
    /// @param node The node to update.
    /// @param primary The primary name.
    function setName(
        bytes32 node,
        string calldata primary
    ) external onlyPartRoles(node, 0, PermissionedResolverLib.ROLE_SET_NAME) {
        _record(node).name = primary;
        emit NameChanged(node, primary);
    }

    /// @notice Set the text for `key` of the associated ENS node.
    /// @param node The node to update.
    /// @param key The text key.
    /// @param value The text value.
    function setText(
        bytes32 node,
        string calldata key,
        string calldata value
    )
        external
        onlyPartRoles(
            node,
            PermissionedResolverLib.partHash(key),
            PermissionedResolverLib.ROLE_SET_TEXT
        )
    {
        _record(node).texts[key] = value;
        emit TextChanged(node, key, key, value);
    }

    /// @notice Same as `multicall()`.
    /// @dev The node parameter is accepted for interface compatibility but is not used.
    ///      Permission checking is handled by individual function calls within the multicall.
    /// @param {node} Ignored, for interface compatibility.
    /// @param calls The calls to make.
    /// @return results The results of the calls.
    function multicallWithNodeCheck(
        bytes32 /* node */,
        bytes[] calldata calls
    ) external returns (bytes[] memory) {
        return multicall(calls);
    }

    /// @inheritdoc IExtendedResolver
    function resolve(
        bytes calldata fromName,
        bytes calldata fromData
    ) external view returns (bytes memory) {
        bytes memory toName = getAlias(fromName);
        bytes memory toData = ResolverProfileRewriterLib.replaceNode(
            fromData,
            NameCoder.namehash(toName.length == 0 ? fromName : toName, 0) // always rewrite node
        );
        if (bytes4(toData) == IMulticallable.multicall.selector) {
            // note: cannot staticcall multicall() because it reverts with first error
            assembly {
                mstore(add(toData, 4), sub(mload(toData), 4))
                toData := add(toData, 4) // drop selector
            }
            bytes[] memory m = abi.decode(toData, (bytes[]));
            for (uint256 i; i < m.length; ++i) {
                toData = m[i];
                (, bytes memory v) = address(this).staticcall(toData);
                if (v.length == 0) {
                    v = abi.encodeWithSelector(UnsupportedResolverProfile.selector, bytes4(toData));
                }
                m[i] = v;
            }
            return abi.encode(m);
        } else {
            (bool ok, bytes memory v) = address(this).staticcall(toData);
            if (!ok) {
                assembly {
                    revert(add(v, 32), mload(v))
                }
            } else if (v.length == 0) {
                revert UnsupportedResolverProfile(bytes4(fromData));
            }
            return v;
        }
    }

    /// @notice Get the current version.
    /// @param node The node to check.
    /// @return version The current version.
    function recordVersions(bytes32 node) external view returns (uint64) {
        return _versions[node];
    }

    /// @inheritdoc IABIResolver
    function ABI(
        bytes32 node,
        uint256 contentTypes
    ) external view returns (uint256 contentType, bytes memory value) {
        Record storage R = _record(node);
        for (contentType = 1; contentType > 0 && contentType <= contentTypes; contentType <<= 1) {
            if ((contentType & contentTypes) != 0) {
                value = R.abis[contentType];
                if (value.length > 0) {
                    return (contentType, value);
                }
            }
        }
        return (0, "");
    }

    /// @inheritdoc IHasAddressResolver
    function hasAddr(bytes32 node, uint256 coinType) external view returns (bool) {
        return _record(node).addresses[coinType].length > 0;
    }

    /// @inheritdoc IContentHashResolver
    function contenthash(bytes32 node) external view returns (bytes memory) {
        return _record(node).contenthash;
    }

    /// @inheritdoc IDataResolver
    function data(bytes32 node, string calldata key) external view returns (bytes memory) {
        return _record(node).datas[key];
    }

    /// @inheritdoc IInterfaceResolver
    function interfaceImplementer(
        bytes32 node,
        bytes4 interfaceId
    ) external view returns (address implementer) {
        implementer = _record(node).interfaces[interfaceId];
        if (implementer == address(0)) {
            address pointer = addr(node);
            if (ERC165Checker.supportsInterface(pointer, interfaceId)) {
                implementer = pointer;
            }
        }
    }

    /// @inheritdoc INameResolver
    function name(bytes32 node) external view returns (string memory) {
        return _record(node).name;
    }

    /// @inheritdoc IPubkeyResolver
    function pubkey(bytes32 node) external view returns (bytes32 x, bytes32 y) {
        Record storage R = _record(node);
        x = R.pubkey[0];
        y = R.pubkey[1];
    }

    /// @inheritdoc ITextResolver
    function text(bytes32 node, string calldata key) external view returns (string memory) {
        return _record(node).texts[key];
    }

    /// @notice Declares this implementation as an eligible verifiable proxy upgrade target.
    /// @dev Upgrade authorization is still enforced by the current implementation during the UUPS
    ///      upgrade call.
    /// @param {previousImplementation} Ignored.
    /// @return allowed Always `true` for implementations in this resolver family.
    function canUpgradeFrom(
        address /* previousImplementation */
    ) external pure virtual override returns (bool allowed) {
        return true;
    }

    /// @notice Perform multiple write operations.
    /// @dev Reverts with first error.
    /// @param calls The calls to make.
    /// @return results The results of the calls.
    function multicall(bytes[] calldata calls) public returns (bytes[] memory results) {
        results = new bytes[](calls.length);
        for (uint256 i; i < calls.length; ++i) {
            (bool ok, bytes memory v) = address(this).delegatecall(calls[i]);
            if (!ok) {
                assembly {
                    revert(add(v, 32), mload(v)) // propagate the first error
                }
            }
            results[i] = v;
        }
        return results;
    }

    /// @notice Set the address for `coinType` of the associated ENS node.
    ///         Reverts `InvalidEVMAddress` if coin type is EVM and not 0 or 20 bytes.
    /// @param node The node to update.
    /// @param coinType The coin type.
    /// @param addressBytes The encoded address.
    function setAddr(
        bytes32 node,
        uint256 coinType,
        bytes memory addressBytes
    )
        public
        onlyPartRoles(
            node,
            PermissionedResolverLib.partHash(coinType),
            PermissionedResolverLib.ROLE_SET_ADDR
        )
    {
        if (
            addressBytes.length != 0 && addressBytes.length != 20 && ENSIP19.isEVMCoinType(coinType)
        ) {
            revert InvalidEVMAddress(addressBytes);
        }
        _record(node).addresses[coinType] = addressBytes;
        emit AddressChanged(node, coinType, addressBytes);
        if (coinType == COIN_TYPE_ETH) {
            emit AddrChanged(node, address(bytes20(addressBytes)));
        }
    }

    /// @inheritdoc IAddressResolver
    function addr(bytes32 node, uint256 coinType) public view returns (bytes memory addressBytes) {
        Record storage R = _record(node);
        addressBytes = R.addresses[coinType];
        if (addressBytes.length == 0 && ENSIP19.chainFromCoinType(coinType) > 0) {
            addressBytes = R.addresses[COIN_TYPE_DEFAULT];
        }
    }

    /// @inheritdoc IAddrResolver
    function addr(bytes32 node) public view returns (address payable) {
        return payable(address(bytes20(addr(node, COIN_TYPE_ETH))));
    }

    /// @inheritdoc IPermissionedResolver
    function getAlias(bytes memory fromName) public view returns (bytes memory toName) {
        bytes32 prev;
        for (;;) {
            bytes memory matchName;
            (matchName, fromName) = _resolveAlias(fromName);
            if (fromName.length == 0) break; // no alias
            bytes32 next = keccak256(matchName);
            if (next == prev) break; // same alias
            toName = fromName;
            prev = next;
        }
    }

    /// @notice Function is disabled.  Use `authorize(Name|Text|Addr)Roles()` instead.
    /// @param resource Ignored.
    /// @param roleBitmap Ignored.
    /// @param account Ignored.
    /// @return success Ignored, always reverts.
    function grantRoles(
        uint256 resource,
        uint256 roleBitmap,
        address account
    ) public pure override(EnhancedAccessControl, IEnhancedAccessControl) returns (bool) {
        revert EACCannotGrantRoles(resource, roleBitmap, account);
    }

    /// @notice Function is disabled.  Use `authorize(Name|Text|Addr)Roles()` instead.
    /// @param resource Ignored.
    /// @param roleBitmap Ignored.
    /// @param account Ignored.
    /// @return success Ignored, always reverts.
    function revokeRoles(
        uint256 resource,
        uint256 roleBitmap,
        address account
    ) public pure override(EnhancedAccessControl, IEnhancedAccessControl) returns (bool) {
        revert EACCannotRevokeRoles(resource, roleBitmap, account);
    }

    ////////////////////////////////////////////////////////////////////////
    // Internal Functions
    ////////////////////////////////////////////////////////////////////////

    /// @dev Allow `ROLE_UPGRADE` to upgrade.
    function _authorizeUpgrade(
        address newImplementation
    ) internal override onlyRootRoles(PermissionedResolverLib.ROLE_UPGRADE) {
        //
    }

    /// @dev HCA-compatible `_msgSender()`.
    function _msgSender()
        internal
        view
        virtual
        override(HCAContext, HCAContextUpgradeable)
        returns (address)
    {
        return HCAContextUpgradeable._msgSender();
    }

    /// @dev Returns the original `msg.data`.
    ///      Needed to resolve Context/ContextUpgradable inheritance.
    function _msgData()
        internal
        view
        virtual
        override(Context, ContextUpgradeable)
        returns (bytes calldata)
    {
        return msg.data;
    }

    /// @dev Returns 0.
    ///      Needed to resolve Context/ContextUpgradable inheritance.
    function _contextSuffixLength()
        internal
        view
        virtual
        override(Context, ContextUpgradeable)
        returns (uint256)
    {
        return 0;
    }

    /// @dev Apply one round of aliasing.
    /// @param fromName The source DNS-encoded name.
    /// @return matchName The alias that matched.
    /// @return toName The destination DNS-encoded name or empty if no match.
    function _resolveAlias(
        bytes memory fromName
    ) internal view returns (bytes memory matchName, bytes memory toName) {
        uint256 offset;
        while (offset < fromName.length) {
            matchName = _aliases[NameCoder.namehash(fromName, offset)];
            if (matchName.length > 0) {
                if (offset > 0) {
                    // rewrite prefix: [x.y].{fromName[offset:]} => [x.y].{matchName}
                    toName = new bytes(offset + matchName.length);
                    assembly {
                        mcopy(add(toName, 32), add(fromName, 32), offset) // copy prefix
                        mcopy(add(toName, add(32, offset)), add(matchName, 32), mload(matchName)) // copy suffix
                    }
                } else {
                    toName = matchName;
                }
                break;
            }
            (, offset) = NameCoder.nextLabel(fromName, offset);
        }
    }

    /// @dev Access record storage pointer.
    function _record(bytes32 node) internal view returns (Record storage R) {
        return _records[node][_versions[node]];
    }

    /// @dev Returns true if `x` has a single bit set.
    function _isPowerOf2(uint256 x) internal pure returns (bool) {
        return x > 0 && (x - 1) & x == 0;
    }
}
